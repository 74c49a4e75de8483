package io.quiver.api.operator;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/** A read-only view of the running server for operator tools (shell commands, admin tools). */
@ProviderType
public interface McpOperator {

    /** The visible tools, in name order. */
    List<CatalogEntry> tools();

    /** Tools that lost their name to a higher-ranked service, in name order. */
    List<CatalogEntry> shadowed();

    /** Services the catalog refused (bad properties, a schema that does not compile), with why. */
    List<CatalogProblem> problems();

    /** The open sessions. */
    List<SessionInfo> sessions();
}
