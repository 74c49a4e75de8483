package io.quiver.tools.fs.internal;

import io.quiver.api.input.InputResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The MCP roots a client offers, as they narrow the configured ones: the tools may reach only what lies in
 * both. A client root inside a configured root narrows it to the client root; a configured root inside a
 * client root stays as it is; a client root that overlaps none allows nothing. Client roots never widen:
 * whether a path is writable is always the configured root's say.
 *
 * @param allowed the real paths that may be reached, in the client's order
 * @param aliases the client's spellings of its roots (with links in them) to their real paths
 * @param ignored client roots that could not be used, each with the reason
 */
record ClientRoots(List<Path> allowed, Map<Path, Path> aliases, List<String> ignored) {

    /** The intersection of the configured roots with the roots a client offers. */
    static ClientRoots narrow(List<Root> configured, List<InputResponse.Root> offered) {
        Set<Path> allowed = new LinkedHashSet<>();
        Map<Path, Path> aliases = new LinkedHashMap<>();
        List<String> ignored = new ArrayList<>();
        for (InputResponse.Root root : offered) {
            String uri = root.uri() == null ? "" : root.uri();
            Path real;
            Path given;
            try {
                if (!uri.toLowerCase(Locale.ROOT).startsWith("file:")) {
                    ignored.add(uri + " (not a file: URI)");
                    continue;
                }
                given = Path.of(URI.create(uri)).toAbsolutePath().normalize();
                real = given.toRealPath();
            } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
                ignored.add(uri + " (not a valid file: URI)");
                continue;
            } catch (IOException e) {
                ignored.add(uri + " (does not exist)");
                continue;
            }
            if (!Files.isDirectory(real)) {
                ignored.add(uri + " (not a directory)");
                continue;
            }
            boolean overlaps = false;
            for (Root c : configured) {
                if (real.startsWith(c.real())) {
                    allowed.add(real);
                    overlaps = true;
                } else if (c.real().startsWith(real)) {
                    allowed.add(c.real());
                    overlaps = true;
                }
            }
            if (!overlaps) {
                ignored.add(uri + " (outside every configured root)");
            } else if (!given.equals(real)) {
                aliases.put(given, real);
            }
        }
        return new ClientRoots(List.copyOf(allowed), aliases, List.copyOf(ignored));
    }
}
