package io.quiver.api.call;

/**
 * A yes or no, with why (for the log and the audit trail; callers are not told why they cannot see
 * something).
 */
public record Decision(boolean allowed, String reason) {

    private static final Decision ALLOW = new Decision(true, "allowed");

    public static Decision allow() {
        return ALLOW;
    }

    public static Decision deny(String reason) {
        return new Decision(false, reason == null || reason.isBlank() ? "denied" : reason);
    }
}
