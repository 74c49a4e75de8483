package io.quiver.tools.admin.internal;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The folders {@code bundle_install} may install from. A location is accepted only when it is an
 * absolute file path or a {@code file:} URL naming a regular file whose real path (symbolic links
 * followed) lies inside the real path of a root. Anything else, other URL schemes included, is
 * refused with a reason the model can read.
 */
final class AllowedRoots {

    private final List<Path> roots;

    AllowedRoots(String[] configured) {
        List<Path> list = new ArrayList<>();
        for (String root : configured == null ? new String[0] : configured) {
            if (root != null && !root.isBlank()) {
                list.add(Paths.get(root.trim()).toAbsolutePath().normalize());
            }
        }
        this.roots = List.copyOf(list);
    }

    List<Path> roots() {
        return roots;
    }

    /**
     * The file a location names, when it lies inside an allowed root.
     *
     * @throws IllegalArgumentException naming why the location is refused
     */
    Path check(String location) {
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("bundle_install is not enabled: no allowedRoots are configured "
                    + "(configuration io.quiver.tools.admin), so no location may be installed.");
        }
        String text = location == null ? "" : location.trim();
        boolean fileUrl = text.toLowerCase(Locale.ROOT).startsWith("file:");
        // a scheme of two letters or more: a one-letter "scheme" is a Windows drive (C:), not a URL
        if (!fileUrl && text.matches("[A-Za-z][A-Za-z0-9+.-]+:.*")) {
            throw new IllegalArgumentException("Only files can be installed (a path or a file: URL), not "
                    + text + ". " + rootsText());
        }
        Path path;
        try {
            path = fileUrl ? Paths.get(URI.create(text)) : Paths.get(text);
        } catch (IllegalArgumentException | FileSystemNotFoundException e) { // InvalidPathException too
            throw new IllegalArgumentException("'" + text + "' is not a valid file path or file: URL. " + rootsText());
        }
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("Give an absolute path or a file: URL, not '" + text + "'. " + rootsText());
        }
        Path real;
        try {
            real = path.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("No such file: " + path + ". " + rootsText());
        }
        if (!Files.isRegularFile(real)) {
            throw new IllegalArgumentException(path + " is not a file. " + rootsText());
        }
        for (Path root : roots) {
            Path realRoot;
            try {
                realRoot = root.toRealPath();
            } catch (IOException e) {
                continue; // a root that does not exist (yet) allows nothing
            }
            if (real.startsWith(realRoot) && !real.equals(realRoot)) {
                return real;
            }
        }
        throw new IllegalArgumentException(path + " is outside the allowed roots. " + rootsText());
    }

    private String rootsText() {
        return "Allowed roots: " + roots + ".";
    }
}
