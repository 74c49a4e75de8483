package io.quiver.launcher;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the framework's own log to slf4j (stderr) instead of Felix's default of stdout, which
 * belongs to the protocol when Quiver runs over stdio. Passed as the {@code felix.log.logger}
 * framework property.
 */
final class FelixLogger extends org.apache.felix.framework.Logger {

    private static final Logger LOG = LoggerFactory.getLogger("org.apache.felix.framework");

    @Override
    protected void doLog(int level, String msg, Throwable throwable) {
        switch (level) {
            case LOG_ERROR -> LOG.error(msg, throwable);
            case LOG_WARNING -> LOG.warn(msg, throwable);
            case LOG_INFO -> LOG.info(msg, throwable);
            default -> LOG.debug(msg, throwable);
        }
    }
}
