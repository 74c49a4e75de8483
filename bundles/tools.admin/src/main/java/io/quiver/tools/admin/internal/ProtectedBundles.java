package io.quiver.tools.admin.internal;

import java.util.ArrayList;
import java.util.List;

/** Symbolic-name patterns: an exact name, or a prefix ending in {@code *}. */
final class ProtectedBundles {

    private final List<String> patterns;

    ProtectedBundles(String[] patterns) {
        List<String> list = new ArrayList<>();
        for (String p : patterns == null ? new String[0] : patterns) {
            if (p != null && !p.isBlank()) {
                list.add(p.trim());
            }
        }
        this.patterns = List.copyOf(list);
    }

    boolean matches(String symbolicName) {
        if (symbolicName == null || symbolicName.isEmpty()) {
            return false;
        }
        for (String pattern : patterns) {
            if (pattern.endsWith("*") ? symbolicName.startsWith(pattern.substring(0, pattern.length() - 1))
                    : symbolicName.equals(pattern)) {
                return true;
            }
        }
        return false;
    }
}
