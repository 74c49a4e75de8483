package io.quiver.itests.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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

    private QuiverServer(Process process, String url, Path home) {
        this.process = process;
        this.url = url;
        this.home = home;
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
        Path home = Files.createDirectories(Path.of("target", "servers", name + "-" + System.nanoTime()));
        Files.createDirectories(home.resolve("etc"));
        Files.createDirectories(home.resolve("deploy"));
        prepare.prepare(home);
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-jar", System.getProperty("quiver.jar"), "run",
                "--port", "0", "--features", features,
                "--etc", home.resolve("etc").toString(),
                "--deploy", home.resolve("deploy").toString(),
                "--data", home.resolve("data").toString()));
        Process process = new ProcessBuilder(command)
                .redirectError(home.resolve("server.log").toFile())
                .start();
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
        return new QuiverServer(process, url, home);
    }

    /** The MCP endpoint URL, e.g. {@code http://127.0.0.1:41234/mcp}. */
    String url() {
        return url;
    }

    /** The base URL without the path. */
    String base() {
        return url.substring(0, url.indexOf('/', "http://".length()));
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
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
