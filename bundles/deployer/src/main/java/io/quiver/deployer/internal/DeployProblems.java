package io.quiver.deployer.internal;

import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import io.quiver.lib.config.TypedConfig;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files in the deploy folder that were refused or failed, with why: each is logged once when it
 * happens and listed until the file changes or goes.
 */
@Component(service = {DeployProblems.class, ProblemSource.class})
public final class DeployProblems implements ProblemSource {

    private static final Logger LOG = LoggerFactory.getLogger("io.quiver.deploy");

    private final Map<String, Problem> byFile = new ConcurrentSkipListMap<>();
    private volatile List<Problem> settings = List.of();

    /** Records (and logs, once) what is wrong with a file. */
    void report(File file, String reason) {
        Problem problem = new Problem(file.getPath(), reason);
        if (!problem.equals(byFile.put(file.getPath(), problem))) {
            LOG.error("{}: {}", file.getPath(), reason);
        }
    }

    /**
     * The problems of the deployer's settings ({@code io.quiver.deployer}): each logged once, listed until the
     * settings are right again.
     */
    void configured(List<TypedConfig.Problem> found) {
        List<Problem> now = found.stream().map(p -> new Problem(p.source(), p.reason())).toList();
        for (Problem problem : now) {
            if (!settings.contains(problem)) {
                LOG.warn("{}", problem);
            }
        }
        settings = now;
    }

    /** Forgets what was wrong with a file if it is still {@code reason} (not a newer problem of the same file). */
    void clearIf(File file, String reason) {
        byFile.remove(file.getPath(), new Problem(file.getPath(), reason));
    }

    /** The file changed or went: whatever was wrong with it is forgotten. */
    void clear(File file) {
        byFile.remove(file.getPath());
    }

    @Override
    public List<Problem> problems() {
        List<Problem> all = new ArrayList<>(settings);
        all.addAll(byFile.values());
        return List.copyOf(all);
    }
}
