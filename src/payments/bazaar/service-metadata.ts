/**
 * The service metadata a 402's `resource` carries for catalogues (bazaar: serviceName, tags,
 * iconUrl), from X402_SERVICE_NAME, X402_SERVICE_TAGS and X402_SERVICE_ICON_URL (checked at
 * start by core/config-bazaar.ts against the spec's rules, so a catalogue drops nothing).
 */
export interface ServiceMetadata {
  readonly serviceName?: string;
  readonly tags?: string[];
  readonly iconUrl?: string;
}

/** The metadata of the configured service (X402_SERVICE_*); none when not configured. */
export const serviceMetadataOf = (
  service:
    | {
        readonly serviceName: string;
        readonly tags: ReadonlyArray<string>;
        readonly iconUrl: string | undefined;
      }
    | undefined,
): ServiceMetadata =>
  service === undefined
    ? {}
    : {
        serviceName: service.serviceName,
        tags: [...service.tags],
        ...(service.iconUrl === undefined ? {} : { iconUrl: service.iconUrl }),
      };
