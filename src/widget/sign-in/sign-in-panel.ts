/**
 * The "Use my credits" panel: the wallets that can sign in, one button each. Signing in keeps a
 * session for the wallet, so its paid questions are spent from this browser on any network.
 */
import { h } from "../../browser/dom.ts";
import type { Api, PaymentInfo, Standing } from "../chat-api.ts";
import type { PayModule } from "../pay/pay-bundle.ts";

export interface SignInPanelDeps {
  readonly api: Api;
  readonly loadPay: () => Promise<PayModule>;
  readonly onSignedIn: (standing: Standing) => void;
}

const paymentInfo = async (root: string): Promise<PaymentInfo> => {
  const res = await fetch(`${root}/api/payment/info`);
  if (!res.ok) throw new Error("The service's payment details could not be read.");
  return (await res.json()) as PaymentInfo;
};

export const signInPanel = (deps: SignInPanelDeps) => {
  const status = h("p", { class: "progress", role: "status", "aria-live": "polite" });
  const problem = h("p", { class: "error", role: "alert", hidden: true });
  const choices = h("div", { class: "wallets" });
  const panel = h(
    "div",
    { class: "payment sign-in", role: "group", "aria-label": "Use my credits" },
    h("p", {}, "Paid with a wallet before? Sign in with it to use its paid questions here."),
    choices,
    status,
    problem,
  );
  let busy = false;
  const fail = (text: string) => {
    problem.textContent = text;
    problem.hidden = false;
    status.textContent = "";
  };
  const progress = (text: string) => {
    status.textContent = text;
  };

  const load = async () => {
    try {
      const [pay, payment] = await Promise.all([deps.loadPay(), paymentInfo(deps.api.root)]);
      const wallets = await pay.findSignInWallets({ apiUrl: deps.api.root, payment });
      if (wallets.length === 0) return fail("No wallet that can sign messages was found in this browser.");
      choices.replaceChildren(
        ...wallets.map((wallet) => {
          const button = h(
            "button",
            { type: "button", class: "secondary" },
            h("img", { src: wallet.icon, alt: "", width: "16", height: "16" }),
            `Sign in with ${wallet.name}`,
          );
          button.addEventListener("click", async () => {
            if (busy) return;
            busy = true;
            problem.hidden = true;
            try {
              const challenge = await deps.api.challenge();
              if ("code" in challenge) return fail(challenge.error);
              const proof = await wallet.prove(challenge, progress);
              const signedIn = await deps.api.signIn(proof);
              if ("code" in signedIn) return fail(signedIn.error);
              panel.replaceChildren(
                h("p", { class: "success", role: "status" }, "Signed in with your wallet."),
              );
              deps.onSignedIn(signedIn);
            } catch (cause) {
              fail(cause instanceof Error ? cause.message : String(cause));
            } finally {
              busy = false;
            }
          });
          return button;
        }),
      );
      choices.querySelector("button")?.focus();
    } catch (cause) {
      fail(cause instanceof Error ? cause.message : String(cause));
    }
  };
  void load();
  return { element: panel, close: () => panel.remove() };
};
