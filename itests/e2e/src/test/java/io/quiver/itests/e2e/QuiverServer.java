package io.quiver.itests.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The server as a user runs it: {@code java -jar quiver.jar run …} in a child process, on an
 * OS-assigned port, with its own etc/, deploy/ and storage folders. Its stderr goes to a log file.
 */
final class QuiverServer implements AutoCloseable {

    private static final String READY = "Quiver MCP endpoint: ";

    private final Process process;
    private final String url;
    private final Path home;
    private final String features;
    private final Path userHome;
    private final String[] options;

    private QuiverServer(Process process, String url, Path home, String features, Path userHome, String... options) {
        this.process = process;
        this.url = url;
        this.home = home;
        this.features = features;
        this.userHome = userHome;
        this.options = options;
    }

    /** Starts a server with the given features and waits for its endpoint line. */
    static QuiverServer start(String name, String features) throws Exception {
        return start(name, features, home -> { });
    }

    /** A folder preparation run before the server starts (to write {@code etc/} files, say). */
    interface Preparation {
        void prepare(Path home) throws IOException;
    }

    /** Starts a server after {@code prepare} has seen its home (with etc/ and deploy/ created). */
    static QuiverServer start(String name, String features, Preparation prepare) throws Exception {
        return start(name, features, prepare, new String[0]);
    }

    /** Starts a server with more command line options (e.g. {@code --bind}). */
    static QuiverServer start(String name, String features, Preparation prepare, String... options) throws Exception {
        return start(name, features, prepare, null, options);
    }

    /**
     * Starts a server whose user home is a folder of the test's: {@code user.home} (what {@code ~} means to the
     * server) and {@code HOME} (for what it runs), so that nothing it might do in {@code ~} reaches the real one.
     */
    static QuiverServer startWithUserHome(String name, String features, Preparation prepare, Path userHome)
            throws Exception {
        return start(name, features, prepare, userHome);
    }

    private static QuiverServer start(String name, String features, Preparation prepare, Path userHome,
            String... options) throws Exception {
        Path home = home(name, prepare);
        return started(home, features, userHome, options);
    }

    /**
     * Stops this server (SIGTERM) and starts another on the same home: its {@code etc/}, {@code deploy/} and
     * framework storage ({@code --data}), as an operator restarts it; the log goes on in the same file.
     */
    QuiverServer restart() throws Exception {
        if (process.isAlive()) {
            stop();
        }
        return started(home, features, userHome, options);
    }

    private static QuiverServer started(Path home, String features, Path userHome, String... options) throws Exception {
        Process process = launch(home, features, userHome, options);
        CompletableFuture<String> endpoint = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith(READY)) {
                        return line.substring(READY.length()).trim();
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        String url = endpoint.get(90, TimeUnit.SECONDS);
        if (url == null) {
            process.destroyForcibly();
            throw new IllegalStateException("the server did not start; see " + home.resolve("server.log")
                    + ":\n" + Files.readString(home.resolve("server.log")));
        }
        return new QuiverServer(process, url, home, features, userHome, options);
    }

    /** Launches a server and returns at once, without waiting for its endpoint (for what happens during a start). */
    static QuiverServer launchOnly(String name, String features) throws Exception {
        Path home = home(name, h -> { });
        return new QuiverServer(launch(home, features, null), null, home, features, null);
    }

    /**
     * Launches a server as {@code ./quiver run} runs by default, with a temporary framework storage (no
     * {@code --data}) in {@code tmp/} of its home (its {@code java.io.tmpdir}), and returns at once.
     */
    static QuiverServer launchOnlyWithTemporaryStorage(String name, String features) throws Exception {
        Path home = home(name, h -> Files.createDirectories(h.resolve("tmp")));
        String[] options = {"-Djava.io.tmpdir=" + home.resolve("tmp"), TEMPORARY_STORAGE};
        return new QuiverServer(launch(home, features, null, options), null, home, features, null, options);
    }

    /** An option of {@link #launch} only: no {@code --data}. */
    private static final String TEMPORARY_STORAGE = "quiver-test:temporary-storage";

    /** How a start that was meant to fail ended. */
    record Failure(int exitCode, String stdout, String log) {
    }

    /** Runs a start that should fail (a refused configuration, say) and returns how it ended. */
    static Failure startFailing(String name, String features, Preparation prepare, String... options) throws Exception {
        Path home = home(name, prepare);
        Process process = launch(home, features, null, options);
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the server was meant to stop on its own");
        }
        return new Failure(process.exitValue(), stdout, Files.readString(home.resolve("server.log")));
    }

    private static Path home(String name, Preparation prepare) throws IOException {
        Path home = Files.createDirectories(Path.of("target", "servers", name + "-" + System.nanoTime())).toAbsolutePath();
        Files.createDirectories(home.resolve("etc"));
        Files.createDirectories(home.resolve("deploy"));
        prepare.prepare(home);
        return home;
    }

    private static Process launch(Path home, String features, Path userHome, String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of(javaBinary()));
        if (userHome != null) {
            command.add("-Duser.home=" + userHome);
        }
        for (String option : options) {
            if (option.startsWith("-D")) {
                command.add(option); // a system property is the JVM's
            }
        }
        command.addAll(List.of("-jar", System.getProperty("quiver.jar"), "run",
                "--port", "0", "--features", features,
                "--etc", home.resolve("etc").toString(),
                "--deploy", home.resolve("deploy").toString()));
        if (!List.of(options).contains(TEMPORARY_STORAGE)) {
            command.addAll(List.of("--data", home.resolve("data").toString()));
        }
        List.of(options).stream().filter(o -> !o.startsWith("-D") && !o.equals(TEMPORARY_STORAGE)).forEach(command::add);
        // the server's working directory is its home: what it writes by default (audit/) stays there
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(home.resolve("server.log").toFile()));
        if (userHome != null) {
            builder.environment().put("HOME", userHome.toString());
        }
        return builder.start();
    }

    /** Whether the process still runs. */
    boolean alive() {
        return process.isAlive();
    }

    /** The MCP endpoint URL, e.g. {@code http://127.0.0.1:41234/mcp}. */
    String url() {
        return url;
    }

    /** The base URL without the path. */
    String base() {
        return url.substring(0, url.indexOf('/', url.indexOf("://") + 3));
    }

    /** The port the server listens on. */
    int port() {
        return URI.create(url).getPort();
    }

    /** Sends SIGKILL (nothing of the server runs after it) and waits for the end. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Sends SIGTERM and returns at once; {@link #awaitExit} waits for the end. */
    void terminate() {
        process.destroy();
    }

    /** Waits for the process to end; its exit code, or -1 when it did not end in time (then it is killed). */
    int awaitExit(long seconds) throws InterruptedException {
        if (process.waitFor(seconds, TimeUnit.SECONDS)) {
            return process.exitValue();
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return -1;
    }

    /** What the process wrote on stdout, once it has ended (for a server from {@link #launchOnly}, which nobody reads). */
    String stdoutAfterExit() {
        try {
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(not readable: " + e.getMessage() + ")";
        }
    }

    /** How many lines of the server's log contain a text. */
    long logLines(String text) throws IOException {
        return log().lines().filter(l -> l.contains(text)).count();
    }

    Path home() {
        return home;
    }

    /** The server's process id (for /proc and jcmd). */
    long pid() {
        return process.pid();
    }

    String log() throws IOException {
        return Files.readString(home.resolve("server.log"));
    }

    /** Sends SIGTERM and waits; returns the exit code (-1 when it had to be killed). */
    int stop() throws InterruptedException {
        process.destroy();
        if (process.waitFor(30, TimeUnit.SECONDS)) {
            return process.exitValue();
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return -1;
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            stop();
        }
        if (!process.isAlive()) {
            // the framework's storage is a copy of the bundles (~30 MB a server): the home keeps its log, etc/ and deploy/
            Dirs.delete(home.resolve("data"));
        }
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
