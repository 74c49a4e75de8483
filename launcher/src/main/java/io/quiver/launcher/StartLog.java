package io.quiver.launcher;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.simple.SimpleServiceProvider;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The command line's logging: slf4j-simple (stderr), with one thing watched on its way. Felix HTTP reports
 * that it could not start Jetty (a key store that does not open, a port in use, a setting Jetty refuses)
 * only in its log, as {@value #JETTY_FAILED}; nothing listens then, and a start would wait out its whole
 * timeout for an endpoint that cannot come. This provider notes such an error ({@link JettyFailures}), so
 * the start ends at once with it. Every message's arguments are logged {@link #printable}: no value from outside
 * breaks a line. Chosen by the {@code slf4j.provider} property the command line sets; an application that embeds
 * Quiver keeps its own logging (and the start timeout).
 */
public final class StartLog implements SLF4JServiceProvider {

    /** Felix HTTP's logger. */
    static final String FELIX_HTTP = "org.apache.felix.http";
    /** What Felix HTTP logs, with the exception, when Jetty does not start. */
    static final String JETTY_FAILED = "Exception while initializing Jetty";

    /** What Felix HTTP logs once Jetty has started. */
    static final String JETTY_STARTED = "Started Jetty";

    private final SimpleServiceProvider simple = new SimpleServiceProvider();
    private volatile ILoggerFactory factory;

    /**
     * Notes Felix HTTP's error when it says that Jetty did not start, with the first error (and exception) it
     * logged on the way, which says why ({@code Failed to start Connector ...: keystore password was incorrect});
     * and its word that Jetty started.
     */
    static void observe(Level level, String message, Object[] arguments, Throwable thrown) {
        if (message == null) {
            return;
        }
        if (level == Level.ERROR && message.startsWith(JETTY_FAILED)) {
            JettyFailures.report(reason(thrown));
        } else if (level == Level.ERROR && thrown != null) {
            JettyFailures.error(MessageFormatter.basicArrayFormat(message, arguments) + ": " + reason(thrown));
        } else if (level == Level.INFO && message.startsWith(JETTY_STARTED)) {
            JettyFailures.started();
        }
    }

    /** The exception's own message, and its root cause's where that says more. */
    static String reason(Throwable thrown) {
        if (thrown == null) {
            return "no reason given";
        }
        Throwable root = thrown;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String top = thrown.getMessage() == null ? thrown.toString() : thrown.getMessage();
        String deepest = root.getMessage() == null ? root.toString() : root.getMessage();
        return root == thrown || top.contains(deepest) ? top : top + " (" + deepest + ")";
    }

    @Override
    public void initialize() {
        simple.initialize();
        ILoggerFactory loggers = simple.getLoggerFactory();
        factory = name -> new Watched(loggers.getLogger(name), FELIX_HTTP.equals(name));
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return simple.getMarkerFactory();
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return simple.getMDCAdapter();
    }

    @Override
    public String getRequestedApiVersion() {
        return simple.getRequestedApiVersion();
    }

    /**
     * A message's argument as it is logged: line breaks and other control characters written as escapes
     * ({@code \n}, {@code \u2028}), so a value someone else chose (a token's subject, a tool's name, an upstream
     * server's stderr) cannot forge log lines or rewrite the terminal. Arrays are left to the formatter.
     */
    static Object printable(Object argument) {
        if (argument == null || argument instanceof Throwable || argument.getClass().isArray()) {
            return argument;
        }
        String text = argument.toString();
        if (text == null) {
            return null;
        }
        StringBuilder escaped = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
            if (control && escaped == null) {
                escaped = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (escaped == null) {
                continue;
            }
            if (!control) {
                escaped.append(c);
            } else if (c == '\n') {
                escaped.append("\\n");
            } else if (c == '\r') {
                escaped.append("\\r");
            } else {
                escaped.append(String.format("\\u%04x", (int) c));
            }
        }
        return escaped == null ? argument : escaped.toString();
    }

    /**
     * A logger that passes everything on, each argument {@link #printable}; Felix HTTP's, looking at what it
     * passes ({@link #observe}).
     */
    static final class Watched extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        private final transient Logger delegate;
        private final boolean observed;

        Watched(Logger delegate, boolean observed) {
            this.delegate = delegate;
            this.observed = observed;
            this.name = delegate.getName();
        }

        @Override
        public boolean isTraceEnabled() {
            return delegate.isTraceEnabled();
        }

        @Override
        public boolean isDebugEnabled() {
            return delegate.isDebugEnabled();
        }

        @Override
        public boolean isInfoEnabled() {
            return delegate.isInfoEnabled();
        }

        @Override
        public boolean isWarnEnabled() {
            return delegate.isWarnEnabled();
        }

        @Override
        public boolean isErrorEnabled() {
            return delegate.isErrorEnabled();
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                Throwable throwable) {
            if (observed) {
                observe(level, messagePattern, arguments, throwable);
            }
            var event = delegate.makeLoggingEventBuilder(level).setMessage(messagePattern).setCause(throwable);
            if (marker != null) {
                event.addMarker(marker);
            }
            if (arguments != null) {
                for (Object argument : arguments) {
                    event.addArgument(printable(argument));
                }
            }
            event.log();
        }
    }
}
