package io.quiver.deployer.internal;

import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.cm.ConfigurationEvent;
import org.osgi.service.cm.ConfigurationListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the files of {@code etc/} the source of truth when two of them name one PID ({@code x.cfg} and
 * {@code x.config}). FileInstall reads both into the same configuration, and deleting either deletes that
 * configuration, though the other file still says what it should be: deleting a stray copy of the JWT settings
 * turned authentication off while {@code io.quiver.auth.jwt.cfg} was still there. So a configuration deleted while a
 * file of its PID remains is read again from that file, at once, by FileInstall's own installer; and two files of
 * one PID are a problem, logged and listed, until one goes.
 */
@Component(service = {ConfigurationListener.class, ProblemSource.class}, immediate = true)
public final class EtcGuard implements ConfigurationListener, ProblemSource {

    private static final Logger LOG = LoggerFactory.getLogger("io.quiver.etc");
    /** The property FileInstall puts on a configuration it read from a file. */
    static final String FILENAME = "felix.fileinstall.filename";
    private static final String[] EXTENSIONS = {".cfg", ".config"};

    /** FileInstall's bundle: its installer of configuration files is the one that reads a file of etc/ again. */
    static final String FILEINSTALL = "org.apache.felix.fileinstall";

    private final BundleContext context;
    private final ConfigurationAdmin admin;
    /** The installer that reads a file again (FileInstall's), or null when none runs. */
    private final Function<File, ArtifactInstaller> installers;
    /** The file each configuration FileInstall made was last read from, by PID. */
    private final Map<String, File> files = new ConcurrentHashMap<>();
    /** PIDs named by two files, with the problem listed for them. */
    private final Map<String, Problem> twins = new ConcurrentSkipListMap<>();

    @Activate
    public EtcGuard(BundleContext context, @Reference ConfigurationAdmin admin) {
        this(context, admin, null);
    }

    /** With another way to find the installer that reads a file again (tests); null: FileInstall's. */
    EtcGuard(BundleContext context, ConfigurationAdmin admin, Function<File, ArtifactInstaller> installers) {
        this.context = context;
        this.admin = admin;
        this.installers = installers != null ? installers : this::installerOf;
        try {
            Configuration[] existing = admin.listConfigurations("(" + FILENAME + "=*)");
            if (existing != null) {
                for (Configuration c : existing) {
                    read(c.getPid(), c.getProperties());
                }
            }
        } catch (IOException | InvalidSyntaxException e) {
            LOG.warn("The configurations read from files could not be listed: {}", e.toString());
        }
    }

    @Override
    public void configurationEvent(ConfigurationEvent event) {
        String pid = event.getPid();
        if (event.getType() == ConfigurationEvent.CM_UPDATED) {
            try {
                Configuration[] found = admin.listConfigurations("(" + org.osgi.framework.Constants.SERVICE_PID + "="
                        + escaped(pid) + ")");
                if (found != null && found.length == 1) {
                    read(pid, found[0].getProperties());
                }
            } catch (IOException | InvalidSyntaxException e) {
                LOG.debug("Configuration {} could not be read: {}", pid, e.toString());
            }
        } else if (event.getType() == ConfigurationEvent.CM_DELETED) {
            File was = files.remove(pid);
            if (was != null) {
                deleted(pid, was);
            }
        }
    }

    /** A value as an LDAP filter takes it literally. */
    static String escaped(String value) {
        StringBuilder b = new StringBuilder(value.length());
        for (char c : value.toCharArray()) {
            if (c == '\\' || c == '*' || c == '(' || c == ')') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    private void read(String pid, Dictionary<String, Object> properties) {
        File file = file(properties == null ? null : properties.get(FILENAME));
        if (file != null) {
            files.put(pid, file);
            checkTwins(pid, file);
        }
    }

    /** A configuration FileInstall made was deleted: if a file of its PID is still there, it is read again. */
    void deleted(String pid, File was) {
        List<File> left = ofPid(was).stream().filter(File::isFile).toList();
        if (left.isEmpty()) {
            twins.remove(pid);
            return; // its file went, and so did it: as it should be
        }
        File remaining = left.get(0);
        LOG.warn("Configuration {} was deleted while {} still sets it (another file of the same PID was deleted):"
                + " read again from it", pid, remaining);
        ArtifactInstaller installer = installers.apply(remaining);
        if (installer == null) {
            LOG.error("Configuration {} stays deleted: no installer of etc/ files is running to read {} again", pid,
                    remaining);
            return;
        }
        try {
            installer.update(remaining);
        } catch (Exception e) {
            LOG.error("Configuration {} could not be read again from {}: {}", pid, remaining, e.toString());
        }
        checkTwins(pid, remaining);
    }

    private void checkTwins(String pid, File file) {
        List<File> present = ofPid(file).stream().filter(File::isFile).toList();
        if (present.size() < 2) {
            twins.remove(pid);
            return;
        }
        Problem problem = new Problem(present.get(0).getPath(), "it and " + present.get(1).getName()
                + " both set configuration " + pid + ": the one saved last counts, and deleting either leaves the"
                + " other's settings; keep one of them");
        if (!problem.equals(twins.put(pid, problem))) {
            LOG.warn("{}", problem);
        }
    }

    /** The files that name the same PID as {@code file}: its name with each extension FileInstall reads. */
    static List<File> ofPid(File file) {
        String name = file.getName();
        int dot = name.lastIndexOf('.');
        String base = dot < 0 ? name : name.substring(0, dot);
        List<File> all = new ArrayList<>(List.of(file)); // the file itself first
        for (String extension : EXTENSIONS) {
            File named = new File(file.getParentFile(), base + extension);
            if (!named.equals(file)) {
                all.add(named);
            }
        }
        return all;
    }

    private static File file(Object filename) {
        if (!(filename instanceof String s) || !s.startsWith("file:")) {
            return null;
        }
        try {
            return new File(URI.create(s));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * FileInstall's installer of configuration files, chosen by its bundle: another bundle's installer that claims
     * such files (one from deploy/) is never handed a file of etc/, which holds keys and secrets.
     */
    private ArtifactInstaller installerOf(File file) {
        try {
            for (ServiceReference<ArtifactInstaller> ref : context.getServiceReferences(ArtifactInstaller.class, null)) {
                if (ref.getBundle() == null || !FILEINSTALL.equals(ref.getBundle().getSymbolicName())) {
                    continue;
                }
                ArtifactInstaller installer = context.getService(ref);
                if (installer != null && installer.canHandle(file)) {
                    return installer; // held until this bundle stops (deletions of a twin's PID are rare)
                }
                if (installer != null) {
                    context.ungetService(ref);
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        return null;
    }

    @Override
    public List<Problem> problems() {
        return List.copyOf(twins.values());
    }
}
