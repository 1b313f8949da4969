/**
 * Bar charts drawn as inline SVG (no chart library: two bar charts do not need one): one bar
 * per day, optionally stacked, a y axis with three ticks and a day label every few bars. Each
 * bar has a <title> with its exact figures; the chart is an image with a text summary.
 */
const SVG = "http://www.w3.org/2000/svg";

const svg = (tag: string, attributes: Readonly<Record<string, string | number>>, text?: string) => {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
};

export interface Series {
  readonly name: string;
  readonly className: string;
  readonly values: ReadonlyArray<number>;
}

export interface BarChart {
  /** YYYY-MM-DD, one per bar. */
  readonly days: ReadonlyArray<string>;
  /** Stacked bottom to top. */
  readonly series: ReadonlyArray<Series>;
  readonly format: (value: number) => string;
  readonly summary: string;
  /** The axis reaches at least this, so an empty or tiny chart still has readable ticks. */
  readonly minTop: number;
}

const [WIDTH, HEIGHT, LEFT, BOTTOM, TOP] = [640, 240, 56, 26, 10];

/** A round upper bound for the axis: 1, 2 or 5 times a power of ten. */
const niceMax = (max: number) => {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].map((step) => step * power).find((bound) => bound >= max) ?? max) as number;
};

export const barChart = ({ days, series, format, summary, minTop }: BarChart): SVGElement => {
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "chart",
    role: "img",
    "aria-label": summary,
  });
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const top = niceMax(Math.max(minTop, ...totals));
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  for (const tick of [0, top / 2, top]) {
    chart.append(svg("line", { x1: LEFT, x2: WIDTH, y1: y(tick), y2: y(tick), class: "axis" }));
    chart.append(svg("text", { x: LEFT - 6, y: y(tick) + 5, "text-anchor": "end" }, format(tick)));
  }
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const labelEvery = Math.ceil(days.length / 8);
  days.forEach((day, i) => {
    let base = 0;
    const x = LEFT + i * slot + slot * 0.15;
    for (const s of series) {
      const value = s.values[i] ?? 0;
      if (value > 0) {
        const bar = svg("rect", {
          x,
          y: y(base + value),
          width: slot * 0.7,
          height: y(base) - y(base + value),
          class: `bar ${s.className}`,
        });
        bar.append(svg("title", {}, `${day}: ${format(value)} ${s.name}`));
        chart.append(bar);
      }
      base += value;
    }
    if (i % labelEvery === 0)
      chart.append(svg("text", { x: x + slot * 0.35, y: HEIGHT - 6, "text-anchor": "middle" }, day.slice(5)));
  });
  return chart;
};
