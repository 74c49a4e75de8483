package io.quiver.api.operator;

import org.osgi.annotation.versioning.ProviderType;

/** A transport's figures for operators, registered by the bundle that serves it. */
@ProviderType
public interface TransportStatus {

    /** What the transport holds now. */
    TransportInfo status();
}
