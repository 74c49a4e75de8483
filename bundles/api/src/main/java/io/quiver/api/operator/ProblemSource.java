package io.quiver.api.operator;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A part of the server that can have problems for the operator (a whiteboard service: every
 * registered one is listed by operator views such as {@code quiver:problems}).
 */
@ConsumerType
public interface ProblemSource {

    /** The problems now, oldest first; empty when there are none. */
    List<Problem> problems();
}
