/** The lifetime of the guest-confirmation question's signed requestState (services/transports/mcp/request-state.ts). */

/** How long the guest has to answer the question before the call must be asked again. */
export const REQUEST_STATE_MAX_AGE_MS = 10 * 60_000;
/** How far ahead of this copy's clock an issue time may be (another copy's clock may run a little fast). */
export const REQUEST_STATE_CLOCK_SKEW_MS = 60_000;
/** The longest a state can stay good after it is first used: its whole lifetime, issued at the skew's edge. */
export const REQUEST_STATE_LIFETIME_SECONDS = (REQUEST_STATE_MAX_AGE_MS + REQUEST_STATE_CLOCK_SKEW_MS) / 1000;
