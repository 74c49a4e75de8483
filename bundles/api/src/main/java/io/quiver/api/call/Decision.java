package io.quiver.api.call;

/**
 * A yes or no, with why (for the log and the audit trail). A plain denial hides the target: callers are
 * not told why they cannot see something, and a use of it reads as unknown. A refusal
 * ({@link #refuse}) keeps the target listed and tells a caller who uses it why it was not run, for what
 * is there but needs something the caller cannot give (a host's approval).
 *
 * @param listed for a denial: the target stays listed and a use is refused with the reason (since 1.2)
 */
public record Decision(boolean allowed, String reason, boolean listed) {

    private static final Decision ALLOW = new Decision(true, "allowed", true);

    /** A decision of 1.0/1.1: a denial hides the target. */
    public Decision(boolean allowed, String reason) {
        this(allowed, reason, allowed);
    }

    public static Decision allow() {
        return ALLOW;
    }

    public static Decision deny(String reason) {
        return new Decision(false, reason == null || reason.isBlank() ? "denied" : reason, false);
    }

    /** Listed, but not to be used now: a use is refused with this reason, which the caller reads (since 1.2). */
    public static Decision refuse(String reason) {
        return new Decision(false, reason == null || reason.isBlank() ? "refused" : reason, true);
    }
}
