package io.quiver.launcher;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code quiver.jar [run] [--port N] [--bind ADDR] [--features a,b] [--etc DIR] [--deploy DIR]
 * [--data DIR]} and {@code quiver.jar help}. Options take their value as the next argument or after
 * {@code =}; the last of a repeated option wins.
 */
public final class CommandLine {

    /** What the command line asks for. */
    public sealed interface Command permits Run, Help {
    }

    /** Start the server with these settings. */
    public record Run(LaunchSettings settings) implements Command {
    }

    /** Print the usage. */
    public record Help() implements Command {
    }

    /** The command line is wrong; the message says how. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    public static final String USAGE = """
            Usage: quiver run [options]     start the MCP server
                   quiver help              print this text

            Options of run:
              --port N            HTTP port (default %d; 0 lets the OS choose)
              --bind ADDR         address to listen on (default %s)
              --features a,b,...  features to start (default %s; core is always included);
                                  a name inside the launcher or a path to a feature .json file
              --etc DIR           configuration folder, watched (default ./etc)
              --deploy DIR        bundle folder, watched (default ./deploy)
              --data DIR          framework storage kept between runs (default: a fresh temporary
                                  folder, deleted on stop)
              --help              print this text

            The first line on stdout is "Quiver MCP endpoint: <url>" once the endpoint answers;
            everything else goes to stderr. Stop with Ctrl-C or SIGTERM.
            """.formatted(LaunchSettings.DEFAULT_PORT, LaunchSettings.DEFAULT_BIND,
            String.join(",", LaunchSettings.DEFAULT_FEATURES));

    private CommandLine() {
    }

    public static Command parse(String... args) throws UsageException {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        if (!rest.isEmpty() && !rest.get(0).startsWith("-")) {
            String command = rest.remove(0);
            switch (command) {
                case "run" -> { }
                case "help" -> {
                    return new Help();
                }
                default -> throw new UsageException("unknown command '" + command + "' (expected run or help)");
            }
        }
        return parseRun(rest);
    }

    private static Command parseRun(List<String> args) throws UsageException {
        LaunchSettings d = LaunchSettings.defaults();
        List<String> features = d.features();
        int port = d.port();
        String bind = d.bind();
        Path etc = d.etc();
        Path deploy = d.deploy();
        Path data = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--help") || arg.equals("-h")) {
                return new Help();
            }
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (!List.of("--port", "--bind", "--features", "--etc", "--deploy", "--data").contains(name)) {
                throw new UsageException("unknown option '" + name + "'");
            }
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.size()) {
                value = args.get(++i);
            } else {
                throw new UsageException("option " + name + " needs a value");
            }
            switch (name) {
                case "--port" -> port = port(value);
                case "--bind" -> bind = notBlank(name, value);
                case "--features" -> features = features(value);
                case "--etc" -> etc = path(name, value);
                case "--deploy" -> deploy = path(name, value);
                case "--data" -> data = path(name, value);
                default -> throw new IllegalStateException(name);
            }
        }
        return new Run(new LaunchSettings(features, port, bind, etc, deploy, data, Map.of(),
                d.startTimeout(), true));
    }

    private static int port(String value) throws UsageException {
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--port: '" + value + "' is not a port number (0-65535)");
    }

    private static List<String> features(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String notBlank(String name, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException(name + " needs a non-empty value");
        }
        return value.trim();
    }

    private static Path path(String name, String value) throws UsageException {
        try {
            return Path.of(notBlank(name, value));
        } catch (InvalidPathException e) {
            throw new UsageException(name + ": '" + value + "' is not a path: " + e.getReason());
        }
    }
}
