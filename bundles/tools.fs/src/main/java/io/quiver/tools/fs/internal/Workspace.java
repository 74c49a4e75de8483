package io.quiver.tools.fs.internal;

import io.quiver.api.Outcome;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration every file tool shares (PID {@value FsConfig#PID}), and the frame of each call: the
 * roots it may reach (the configured ones, narrowed by the client's MCP roots), and its failures turned into
 * {@code isError} results the model reads.
 *
 * <p><b>Client roots are asked on every call, not cached per session.</b> A tool sees no session (the
 * {@link io.quiver.api.RequestContext} has none), and never hears {@code notifications/roots/list_changed}:
 * a cache could only be keyed by something two sessions share, and would keep allowing what a client has
 * since taken away. One {@code roots/list} round trip per call (on the call's own stream) is cheap next to a
 * model's turn, and always current.
 */
@Component(service = {Workspace.class, ProblemSource.class}, configurationPid = FsConfig.PID, immediate = true)
@Designate(ocd = FsConfig.class)
public final class Workspace implements ProblemSource {

    /** The key of the roots request; the answer comes back under it. */
    static final String ROOTS = "roots";

    private static final Logger LOG = LoggerFactory.getLogger(Workspace.class);
    /** How often roots that did not exist are looked for again (ms). */
    private static final long RETRY_MS = 1000;

    /** What a tool does inside the frame. */
    @FunctionalInterface
    interface Action {
        ToolResult run(Sandbox sandbox) throws FsException, IOException;
    }

    private final Path workingDirectory;
    private final Path home;
    private final List<Path> serverFolders;
    private volatile FsConfig config;
    private volatile Settings settings;
    private volatile long settingsAt;
    private volatile List<Problem> configProblems = List.of();
    private volatile List<Problem> rootProblems = List.of();
    private volatile String source = "configuration " + FsConfig.PID;

    @Activate
    public Workspace(BundleContext context, Map<String, Object> properties) {
        this(properties, Path.of(System.getProperty("user.dir")), Path.of(System.getProperty("user.home")),
                serverFolders(context));
    }

    /** With a working directory and a home of its own, for tests. */
    Workspace(Map<String, Object> properties, Path workingDirectory, Path home) {
        this(properties, workingDirectory, home, List.of());
    }

    /** With a working directory, a home and the server's own folders of its own, for tests. */
    Workspace(Map<String, Object> properties, Path workingDirectory, Path home, List<Path> serverFolders) {
        this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
        this.home = home.toAbsolutePath().normalize();
        this.serverFolders = List.copyOf(serverFolders);
        apply(properties, null);
    }

    /**
     * The folders of the server's own that no tool may reach, whatever the roots say: its configuration (where
     * secrets, grants and keys are), its deploy folder (a bundle dropped there runs in the server) and the
     * framework storage, as the launcher names them, and an embedding application's private folders.
     */
    static List<Path> serverFolders(BundleContext context) {
        List<Path> folders = new ArrayList<>();
        for (String property : List.of(ETC, DEPLOY, Constants.FRAMEWORK_STORAGE, PRIVATE)) {
            String value = context.getProperty(property);
            if (value == null || value.isBlank()) {
                continue;
            }
            for (String one : property.equals(PRIVATE) ? value.split(java.io.File.pathSeparator) : new String[] {value}) {
                try {
                    if (!one.isBlank()) {
                        folders.add(Path.of(one.strip()));
                    }
                } catch (InvalidPathException e) {
                    LOG.warn("The framework property {} is not a path: {}", property, one);
                }
            }
        }
        return folders;
    }

    /** The framework properties the launcher names its configuration and deploy folders with. */
    static final String ETC = "quiver.etc";
    static final String DEPLOY = "quiver.deploy";
    /** An embedding application's own folders (its records, its secrets), separated by the path separator. */
    static final String PRIVATE = "quiver.private";

    @Modified
    void modified(Map<String, Object> properties) {
        apply(properties, config);
    }

    private synchronized void apply(Map<String, Object> properties, FsConfig previous) {
        TypedConfig.Result<FsConfig> result = TypedConfig.read(FsConfig.class, properties, previous);
        List<Problem> found = result.problems().stream().map(p -> new Problem(p.source(), p.reason())).toList();
        found.stream().filter(p -> !configProblems.contains(p)).forEach(p -> LOG.warn("{}", p));
        configProblems = found;
        source = TypedConfig.source(properties);
        config = result.config();
        resolve();
    }

    private synchronized void resolve() {
        Settings s = Settings.of(config, workingDirectory, home, serverFolders);
        List<Problem> found = s.problems().stream().map(p -> new Problem(source, p)).toList();
        found.stream().filter(p -> !rootProblems.contains(p)).forEach(p -> LOG.warn("{}", p));
        rootProblems = found;
        settings = s;
        settingsAt = System.nanoTime();
    }

    /**
     * The settings now; roots that were missing, and excluded directories that did not exist, are looked for again
     * at most once a second.
     */
    Settings settings() {
        Settings s = settings;
        if ((!s.problems().isEmpty() || s.keysPending()) && System.nanoTime() - settingsAt > RETRY_MS * 1_000_000L) {
            resolve();
            s = settings;
        }
        return s;
    }

    @Override
    public List<Problem> problems() {
        if (rootProblems.isEmpty()) {
            return configProblems;
        }
        List<Problem> all = new ArrayList<>(configProblems);
        all.addAll(rootProblems);
        return List.copyOf(all);
    }

    /**
     * Runs one attempt of a tool call inside its roots: asks the client for its roots first when it offers
     * them (and the configuration takes them), then runs the action; a failure the model should read becomes
     * an {@code isError} result.
     */
    Outcome run(ToolCall call, Action action) {
        Settings s = settings();
        Sandbox sandbox;
        try {
            if (s.clientRoots() && call.context().client().supports("roots")) {
                Optional<InputResponse> answer = call.answer(ROOTS);
                if (answer.isEmpty()) {
                    return Outcome.needsInput(new InputRequest.Roots(ROOTS));
                }
                sandbox = narrowed(s, answer.get());
            } else {
                sandbox = configured(s);
            }
        } catch (FsException e) {
            return Outcome.done(ToolResult.error(e.getMessage()));
        }
        try {
            return Outcome.done(action.run(sandbox));
        } catch (FsException e) {
            return Outcome.done(ToolResult.error(e.getMessage()));
        } catch (IOException e) {
            return Outcome.done(ToolResult.error(describe(e)));
        } catch (InvalidPathException e) {
            return Outcome.done(ToolResult.error("The path " + PathRules.show(e.getInput()) + " cannot be used here ("
                    + e.getReason() + ")."));
        }
    }

    private Sandbox configured(Settings s) throws FsException {
        if (s.roots().isEmpty()) {
            throw new FsException("No root is configured that exists, so the file tools reach nothing. An operator"
                    + " sets roots in etc/io.quiver.tools.fs.cfg" + (s.problems().isEmpty() ? "."
                            : " (" + String.join("; ", s.problems()) + ")."));
        }
        return new Sandbox(new AllowedRoots(s, s.roots().stream().map(Root::real).toList(), aliases(s, Map.of()),
                false, home));
    }

    private Sandbox narrowed(Settings s, InputResponse answer) throws FsException {
        Sandbox configured = configured(s);
        if (!(answer instanceof InputResponse.RootList list) || list.roots().isEmpty()) {
            return configured; // the client offers none: the configured roots apply
        }
        ClientRoots client = ClientRoots.narrow(s.roots(), list.roots());
        if (client.allowed().isEmpty()) {
            throw new FsException("Access denied: none of the client's roots (" + String.join(", ", client.ignored())
                    + ") overlaps a root this server allows (" + configured.roots().rootsText() + "), so nothing may be"
                    + " reached. Open a project inside an allowed root, or ask the operator to allow it.");
        }
        return new Sandbox(new AllowedRoots(s, client.allowed(), aliases(s, client.aliases()), true, home));
    }

    /** Other spellings of roots to their real paths: the given ones, then the configured roots' (with links). */
    private static Map<Path, Path> aliases(Settings s, Map<Path, Path> given) {
        Map<Path, Path> aliases = new LinkedHashMap<>(given);
        for (Root root : s.roots()) {
            if (!root.given().equals(root.real())) {
                aliases.put(root.given(), root.real());
            }
        }
        return aliases;
    }

    /** An I/O failure as the model reads it: what and where, never a stack trace. */
    static String describe(IOException e) {
        String file = e instanceof FileSystemException f && f.getFile() != null ? f.getFile() : null;
        String where = file == null ? "" : ": " + file;
        if (e instanceof NoSuchFileException) {
            return "No such file or directory" + where + ".";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied" + where + ".";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "Already exists" + where + ".";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "Directory not empty" + where + ".";
        }
        if (e instanceof NotDirectoryException) {
            return "Not a directory" + where + ".";
        }
        if (e instanceof FileSystemException f) {
            String reason = f.getReason() == null ? "failed" : f.getReason();
            return "The file system refused" + where + " (" + reason + ").";
        }
        return "I/O error: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ".";
    }
}
