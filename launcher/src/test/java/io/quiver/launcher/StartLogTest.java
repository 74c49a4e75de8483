package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.ILoggerFactory;

/**
 * The command line's logging notes Felix HTTP's report that Jetty did not start, and nothing else, and
 * still logs everything it is given.
 */
class StartLogTest {

    private final ILoggerFactory loggers = loggers();

    @BeforeEach
    void clear() {
        JettyFailures.started(); // nothing noted by another test
    }

    private static ILoggerFactory loggers() {
        StartLog provider = new StartLog();
        provider.initialize();
        return provider.getLoggerFactory();
    }

    @Test
    void felixHttpsReportThatJettyDidNotStartIsNotedWithItsCause() {
        long before = System.nanoTime();
        Exception thrown = new IllegalStateException("Failed to start Connector",
                new IOException("keystore password was incorrect"));
        loggers.getLogger(StartLog.FELIX_HTTP).error(StartLog.JETTY_FAILED, thrown);
        JettyFailures.Failure failure = JettyFailures.since(before);
        assertNotNull(failure);
        assertEquals("Failed to start Connector (keystore password was incorrect)", failure.why());
    }

    @Test
    void otherMessagesLevelsAndLoggersAreNotFailures() {
        long before = System.nanoTime();
        Exception thrown = new IllegalArgumentException("KeyStore Path not accessible: /none.p12");
        loggers.getLogger(StartLog.FELIX_HTTP).error("Some other trouble", thrown);
        loggers.getLogger(StartLog.FELIX_HTTP).warn(StartLog.JETTY_FAILED, thrown);
        loggers.getLogger("org.apache.felix.http.other").error(StartLog.JETTY_FAILED, thrown);
        assertNull(JettyFailures.since(before));

        loggers.getLogger(StartLog.FELIX_HTTP).error(StartLog.JETTY_FAILED + " ({} connectors)", 2,
                new NullPointerException("this.server is null"));
        assertEquals("Some other trouble: KeyStore Path not accessible: /none.p12", JettyFailures.since(before).why(),
                "the first error logged on the way says why, not the failure's own exception");
        assertNull(JettyFailures.since(System.nanoTime()), "a failure counts for a start that began before it");
    }

    @Test
    void aConnectorThatDidNotStartIsTheReasonWhenFelixHttpFailsAfterIt() {
        long before = System.nanoTime();
        // as Felix HTTP logs a key store whose password is wrong: the connector, Jetty stopping, then its own failure
        loggers.getLogger(StartLog.FELIX_HTTP).error("Failed to start Connector: {}", "ServerConnector{SSL}{127.0.0.1:8443}",
                new IOException("keystore password was incorrect"));
        loggers.getLogger(StartLog.FELIX_HTTP).error("Jetty stopped (no connectors available)");
        assertNull(JettyFailures.since(before), "not a failure until Felix HTTP says so");
        loggers.getLogger(StartLog.FELIX_HTTP).error(StartLog.JETTY_FAILED, new NullPointerException("this.server is null"));
        assertEquals("Failed to start Connector: ServerConnector{SSL}{127.0.0.1:8443}: keystore password was incorrect",
                JettyFailures.since(before).why());
    }

    @Test
    void aJettyStartedAgainAfterAFailureClearsIt() {
        long before = System.nanoTime();
        loggers.getLogger(StartLog.FELIX_HTTP).error(StartLog.JETTY_FAILED, new IllegalStateException("port in use"));
        assertNotNull(JettyFailures.since(before));
        loggers.getLogger(StartLog.FELIX_HTTP).info(StartLog.JETTY_STARTED + " {} at port(s) {}", "12.0.32", "HTTP:7711");
        assertNull(JettyFailures.since(before), "Felix HTTP started Jetty again (a new configuration): the start goes on");
    }

    @Test
    void aReasonSaysTheRootCauseOnceAndNeverNothing() {
        assertEquals("no reason given", StartLog.reason(null));
        assertEquals("java.io.IOException", StartLog.reason(new IOException()));
        IOException root = new IOException("port 443 in use");
        assertEquals("java.io.IOException: port 443 in use",
                StartLog.reason(new RuntimeException(root)), "the top message holds the root's already");
    }

    /**
     * A value from outside in a message cannot forge a line: a token subject that carries a line break and a fake
     * log line is logged on one line, its breaks as escapes; tabs and other scripts stay as they are.
     */
    @Test
    void argumentsAreLoggedWithoutTheirLineBreaks() {
        assertEquals("mallory\\n22:09:59.999 [main] INFO Gatekeeper - admin logged in\\u2028\\r\\u001b[2J",
                StartLog.printable("mallory\n22:09:59.999 [main] INFO Gatekeeper - admin logged in\u2028\r\u001b[2J"));
        assertEquals("tab\there, 日本, é", StartLog.printable("tab\there, 日本, é"));
        assertEquals("\\u0085\\u0000", StartLog.printable("\u0085\u0000"));
        assertNull(StartLog.printable(null));
        assertEquals(7, StartLog.printable(7), "nothing to escape: the value itself");
        String[] array = {"a\nb"};
        assertEquals(array, StartLog.printable(array), "arrays are the formatter's to write");

        PrintStream err = System.err;
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        System.setErr(new PrintStream(written, true, StandardCharsets.UTF_8));
        try {
            loggers.getLogger("io.quiver.transport.http.internal.Gatekeeper").warn("refused (the last: {}) at {}",
                    "mallory\n12:00:00.000 [main] INFO forged", "/mcp");
        } finally {
            System.setErr(err);
        }
        String log = written.toString(StandardCharsets.UTF_8);
        assertEquals(1, log.lines().count(), log);
        assertTrue(log.contains("refused (the last: mallory\\n12:00:00.000 [main] INFO forged) at /mcp"), log);
    }
}
