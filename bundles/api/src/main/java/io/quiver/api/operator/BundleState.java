package io.quiver.api.operator;

/**
 * A bundle's life-cycle state as operators read it (the shell, the admin tools): the names of the
 * OSGi {@code Bundle} state constants, whose values they carry.
 */
public enum BundleState {
    UNINSTALLED(0x01),
    INSTALLED(0x02),
    RESOLVED(0x04),
    STARTING(0x08),
    STOPPING(0x10),
    ACTIVE(0x20);

    private final int value;

    BundleState(int value) {
        this.value = value;
    }

    /** The name of a {@code Bundle.getState()} value; an unknown value as its number. */
    public static String name(int state) {
        for (BundleState s : values()) {
            if (s.value == state) {
                return s.name();
            }
        }
        return Integer.toString(state);
    }
}
