package io.quiver.launcher;

import java.nio.file.InvalidPathException;
import java.time.DateTimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code quiver.jar [run] [--stdio] [--port N] [--bind ADDR] [--features a,b] [--etc DIR] [--deploy DIR]
 * [--data DIR]}, {@code quiver.jar apikey create --subject S [...]} and {@code quiver.jar help}. Options
 * take their value as the next argument or after {@code =}; the last of a repeated option wins.
 */
public final class CommandLine {

    /** What the command line asks for. */
    public sealed interface Command permits Run, CreateApiKey, Help {
    }

    /** Start the server with these settings. */
    public record Run(LaunchSettings settings) implements Command {
    }

    /**
     * Create an API key ({@link ApiKeyCommand}). Every text is checked to be safe in a {@code .cfg} file.
     *
     * @param subject who callers with the key are
     * @param tenant their tenant
     * @param roles roles granted, possibly none
     * @param scopes OAuth scopes granted, possibly none
     * @param expires the expiry as given, checked and normalised: a date ({@code 2027-03-01}) or an
     *     instant ({@code 2027-03-01T00:00:00Z}); null to expire {@code days} from now
     * @param days the key's lifetime when {@code expires} is null
     * @param name the configuration's name, {@code [a-z0-9-]+}: {@code etc/io.quiver.auth.apikey-<name>.cfg}
     * @param etc the configuration folder
     * @param write whether to write the file (else only print it)
     */
    public record CreateApiKey(String subject, String tenant, List<String> roles, List<String> scopes, String expires,
                               int days, String name, Path etc, boolean write) implements Command {
        public CreateApiKey {
            roles = List.copyOf(roles);
            scopes = List.copyOf(scopes);
        }
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

    /** The text of {@code quiver help}, made when asked for (formatting it costs a start ~50 ms of locale data). */
    public static String usage() {
        return """
            Usage: quiver run [options]     start the MCP server
                   quiver apikey create --subject S [options]
                                            create an API key for a service account
                   quiver help              print this text

            Options of run:
              --stdio             serve MCP on stdin and stdout, one JSON-RPC message per line, for a
                                  host that launches the server (Claude Desktop, Claude Code); the
                                  server stops when stdin ends. Features default to %s
                                  (no HTTP unless --features names http)
              --port N            HTTP port (default %d; 0 lets the OS choose)
              --bind ADDR         address to listen on (default %s); beyond loopback it needs
                                  allowedHosts and an authentication (JWT or an API key)
              --insecure-no-auth  allow --bind beyond loopback without authentication (anyone who
                                  reaches the address can call every tool; warned at every start)
              --features a,b,...  features to start (default %s; core is always included);
                                  a name inside the launcher or a path to a feature .json file
              --etc DIR           configuration folder, watched (default ./etc)
              --deploy DIR        bundle folder, watched (default ./deploy)
              --data DIR          framework storage kept between runs (default: a fresh temporary
                                  folder, deleted on stop)
              --help              print this text

            The first line on stdout is "Quiver MCP endpoint: <url>" once the endpoint answers;
            everything else goes to stderr. Stop with Ctrl-C or SIGTERM. With --stdio, stdout carries
            the protocol only (the endpoint line, if any, goes to stderr).

            Options of apikey create:
              --subject S         who callers with the key are: the service account (required)
              --tenant T          their tenant (default: default)
              --roles r1,r2       roles granted (default: none)
              --scopes a,b        OAuth scopes granted (default: none)
              --expires WHEN      expiry: a date (2027-03-01, the start of that day UTC) or an
                                  instant (2027-03-01T00:00:00Z)
              --days N            or: expiry N days from now (default %d)
              --name NAME         configuration name, [a-z0-9-] (default: the subject, sanitised)
              --write             create etc/io.quiver.auth.apikey-NAME.cfg (never overwrites)
              --etc DIR           configuration folder of --write (default ./etc)

            The key is printed once, on stdout, and stored nowhere: the configuration holds only its
            hash. Deleting the configuration file revokes the key.
                """.formatted(String.join(",", LaunchSettings.STDIO_FEATURES), LaunchSettings.DEFAULT_PORT,
                LaunchSettings.DEFAULT_BIND,
                String.join(",", LaunchSettings.DEFAULT_FEATURES), ApiKeyCommand.DEFAULT_DAYS);
    }

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
                case "apikey" -> {
                    return parseApiKey(rest);
                }
                default -> throw new UsageException("unknown command '" + command + "' (expected run, apikey or help)");
            }
        }
        return parseRun(rest);
    }

    private static Command parseRun(List<String> args) throws UsageException {
        LaunchSettings d = LaunchSettings.defaults();
        List<String> features = null;
        boolean stdio = false;
        int port = d.port();
        String bind = d.bind();
        Path etc = d.etc();
        Path deploy = d.deploy();
        Path data = null;
        Map<String, String> properties = new java.util.HashMap<>();
        List<Option> options = options(args, 0, List.of("--port", "--bind", "--features", "--etc", "--deploy", "--data"),
                List.of("--insecure-no-auth", "--stdio"), "");
        if (options == null) {
            return new Help();
        }
        for (Option o : options) {
            switch (o.name()) {
                case "--port" -> port = port(o.value());
                case "--bind" -> bind = notBlank(o.name(), o.value());
                case "--features" -> features = features(o.value());
                case "--etc" -> etc = path(o.name(), o.value());
                case "--deploy" -> deploy = path(o.name(), o.value());
                case "--data" -> data = path(o.name(), o.value());
                case "--insecure-no-auth" -> properties.put(FrameworkProperties.INSECURE_NO_AUTH, "true");
                case "--stdio" -> stdio = true;
                default -> throw new IllegalStateException(o.name());
            }
        }
        if (stdio) {
            properties.put(FrameworkProperties.STDIO, "true");
            if (features == null) {
                features = LaunchSettings.STDIO_FEATURES;
            } else if (!features.contains("stdio")) {
                // --stdio needs its transport whatever else is asked for
                features = new ArrayList<>(features);
                features.add("stdio");
            }
        } else if (features == null) {
            features = d.features();
        }
        return new Run(new LaunchSettings(features, port, bind, etc, deploy, data, Map.copyOf(properties),
                d.startTimeout(), true));
    }

    /** One option of a command line: its name and its value (null for a flag). */
    private record Option(String name, String value) {
    }

    /**
     * The options from {@code args[from]} on, in order: flags, and options with a value as the next
     * argument or after {@code =}. Null when {@code --help} or {@code -h} asks for the usage.
     *
     * @param of the command, for messages ({@code " of apikey create"}), or empty
     */
    private static List<Option> options(List<String> args, int from, List<String> valued, List<String> flags, String of)
            throws UsageException {
        List<Option> options = new ArrayList<>();
        for (int i = from; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--help") || arg.equals("-h")) {
                return null;
            }
            if (flags.contains(arg)) {
                options.add(new Option(arg, null));
                continue;
            }
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (flags.contains(name)) {
                throw new UsageException(name + " takes no value");
            }
            if (!valued.contains(name)) {
                throw new UsageException("unknown option '" + name + "'" + of);
            }
            if (eq >= 0) {
                options.add(new Option(name, arg.substring(eq + 1)));
            } else if (i + 1 < args.size()) {
                options.add(new Option(name, args.get(++i)));
            } else {
                throw new UsageException("option " + name + " needs a value");
            }
        }
        return options;
    }

    /** {@code apikey create [options]}; {@code apikey} alone, or with --help, is the usage. */
    private static Command parseApiKey(List<String> args) throws UsageException {
        if (args.isEmpty() || List.of("help", "--help", "-h").contains(args.get(0))) {
            return new Help();
        }
        if (!args.get(0).equals("create")) {
            throw new UsageException("unknown apikey command '" + args.get(0) + "' (expected create)");
        }
        String subject = null;
        String tenant = "default";
        List<String> roles = List.of();
        List<String> scopes = List.of();
        String expires = null;
        Integer days = null;
        String name = null;
        Path etc = LaunchSettings.defaults().etc();
        boolean write = false;
        List<Option> options = options(args, 1, List.of("--subject", "--tenant", "--roles", "--scopes", "--expires",
                "--days", "--name", "--etc"), List.of("--write"), " of apikey create");
        if (options == null) {
            return new Help();
        }
        for (Option o : options) {
            String option = o.name();
            String value = o.value();
            switch (option) {
                case "--subject" -> subject = cfgText(option, notBlank(option, value));
                case "--tenant" -> tenant = cfgText(option, notBlank(option, value));
                case "--roles" -> roles = cfgList(option, value);
                case "--scopes" -> scopes = cfgList(option, value);
                case "--expires" -> expires = expires(value);
                case "--days" -> days = days(value);
                case "--name" -> name = notBlank(option, value);
                case "--etc" -> etc = path(option, value);
                case "--write" -> write = true;
                default -> throw new IllegalStateException(option);
            }
        }
        if (subject == null) {
            throw new UsageException("apikey create needs --subject, the service account the key is for");
        }
        if (expires != null && days != null) {
            throw new UsageException("give --expires or --days, not both");
        }
        String configName = ApiKeyCommand.sanitise(name != null ? name : subject);
        if (configName.isEmpty()) {
            throw new UsageException("no configuration name can be made of '" + (name != null ? name : subject)
                    + "': give --name with letters, digits or -");
        }
        return new CreateApiKey(subject, tenant, roles, scopes, expires,
                days != null ? days : ApiKeyCommand.DEFAULT_DAYS, configName, etc, write);
    }

    private static String expires(String value) throws UsageException {
        try {
            return ApiKeyCommand.normalisedExpiry(value);
        } catch (DateTimeException e) {
            throw new UsageException("--expires: '" + value + "' is not a date (2027-03-01) or an instant"
                    + " (2027-03-01T00:00:00Z)");
        }
    }

    private static int days(String value) throws UsageException {
        try {
            int days = Integer.parseInt(value.trim());
            if (days >= 1) {
                return days;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--days: '" + value + "' is not a number of days (1 or more)");
    }

    /**
     * A value the {@code .cfg} file can hold as it is: printable ASCII without {@code \} (an escape in
     * a properties file) and {@code $} (FileInstall substitutes {@code ${...}}).
     */
    private static String cfgText(String option, String value) throws UsageException {
        String v = value.trim();
        for (char c : v.toCharArray()) {
            if (c < 0x20 || c > 0x7e || c == '\\' || c == '$') {
                throw new UsageException(option + ": '" + value + "' must be printable ASCII without \\ or $");
            }
        }
        return v;
    }

    private static List<String> cfgList(String option, String value) throws UsageException {
        List<String> items = new ArrayList<>();
        for (String item : features(value)) {
            String v = cfgText(option, item);
            if (!items.contains(v)) {
                items.add(v);
            }
        }
        return items;
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
