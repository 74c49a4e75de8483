package io.quiver.permissions.internal;

import io.quiver.api.call.Target;
import io.quiver.api.operator.Problem;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One pattern of a grant: {@code [kind:]glob}. The kind is {@code tool}, {@code resource},
 * {@code template} or {@code prompt} (none: any kind); in the glob {@code *} stands for any run of
 * characters (a resource URI's slashes included) and {@code ?} for one.
 */
record TargetPattern(Target.Kind kind, Pattern glob, String text) {

    /** Parses a pattern; an unknown kind prefix is an error the grant reports. */
    static TargetPattern parse(String text) {
        String t = text.trim();
        Target.Kind kind = null;
        int colon = t.indexOf(':');
        if (colon > 0) {
            String prefix = t.substring(0, colon).toLowerCase(Locale.ROOT);
            Target.Kind named = switch (prefix) {
                case "tool" -> Target.Kind.TOOL;
                case "resource" -> Target.Kind.RESOURCE;
                case "template" -> Target.Kind.RESOURCE_TEMPLATE;
                case "prompt" -> Target.Kind.PROMPT;
                default -> null;
            };
            // a resource URI has a scheme (file:...): only the four kinds count as a prefix
            if (named != null) {
                kind = named;
                t = t.substring(colon + 1);
            }
        }
        if (t.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' names nothing");
        }
        return new TargetPattern(kind, TypedConfig.glob(t), text.trim());
    }

    /**
     * The patterns of one setting; each that cannot be read is a problem ({@code key = text: why} and then
     * {@code consequence}) and left out.
     */
    static List<TargetPattern> parseAll(String[] values, String key, String source, String consequence,
            List<Problem> problems) {
        List<TargetPattern> patterns = new ArrayList<>();
        for (String text : TypedConfig.list(values)) {
            try {
                patterns.add(parse(text));
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(source, key + " = " + text + ": " + e.getMessage() + consequence));
            }
        }
        return List.copyOf(patterns);
    }

    boolean matches(Target target) {
        return (kind == null || kind == target.kind()) && glob.matcher(target.name()).matches();
    }

    @Override
    public String toString() {
        return text;
    }
}
