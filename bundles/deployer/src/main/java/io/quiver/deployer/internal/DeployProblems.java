package io.quiver.deployer.internal;

import io.quiver.api.operator.Problem;
import io.quiver.api.operator.ProblemSource;
import java.io.File;
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

    /** Records (and logs, once) what is wrong with a file. */
    void report(File file, String reason) {
        Problem problem = new Problem(file.getPath(), reason);
        if (!problem.equals(byFile.put(file.getPath(), problem))) {
            LOG.error("{}: {}", file.getPath(), reason);
        }
    }

    /** The file changed or went: whatever was wrong with it is forgotten. */
    void clear(File file) {
        byFile.remove(file.getPath());
    }

    @Override
    public List<Problem> problems() {
        return List.copyOf(byFile.values());
    }
}
