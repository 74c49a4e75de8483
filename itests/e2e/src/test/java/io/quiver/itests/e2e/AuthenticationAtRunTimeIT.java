package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Authentication switched on and off while the server runs, as an operator does it: a loopback server
 * started without any serves the anonymous local caller; an API key file written into {@code etc/}
 * makes every request need a credential within seconds (the key works, none or another does not); a
 * broken key file alone keeps it locked; deleting the key files opens the loopback server again.
 */
class AuthenticationAtRunTimeIT {

    private static final Duration T = Duration.ofSeconds(10);
    private static final Duration EFFECT = Duration.ofSeconds(20);

    @Test
    void aKeyFileWrittenAtRunTimeLocksTheEndpointAndDeletingItOpensItAgain() throws Exception {
        try (QuiverServer server = QuiverServer.start("auth-runtime", "core,http,tools-default")) {
            Path etc = server.home().resolve("etc");
            assertEquals(200, call(server, Map.of()).statusCode(), "no authentication configured: the local caller");

            String key = Credentials.newApiKey();
            Files.writeString(etc.resolve("io.quiver.auth.apikey-ops.cfg"), Credentials.apiKeyConfig(key, "ops", "", ""));
            awaitStatus(server, Map.of(), 401);
            assertEquals(200, call(server, Credentials.bearer(key)).statusCode(), "the new key works");
            assertEquals(401, call(server, Credentials.bearer(Credentials.newApiKey())).statusCode());

            // a typo in the only key file: locked, not open
            Files.writeString(etc.resolve("io.quiver.auth.apikey-ops.cfg"), "hash = sha256:not-hex\nsubject = ops\n"
                    + "expires = 2099-01-01\n");
            awaitStatus(server, Credentials.bearer(key), 401);
            assertEquals(401, call(server, Map.of()).statusCode(), "a broken key file keeps the endpoint locked");

            Files.delete(etc.resolve("io.quiver.auth.apikey-ops.cfg"));
            awaitStatus(server, Map.of(), 200);
        }
    }

    @Test
    void aKeyFileDeletedWhileTheServerIsStoppedIsRevokedWhenItStartsAgain() throws Exception {
        // the framework storage (--data) is kept between the two runs, as an operator keeps it
        String key = Credentials.newApiKey();
        String other = Credentials.newApiKey();
        try (QuiverServer first = QuiverServer.start("auth-restart", "core,http,tools-default", home -> {
            Files.writeString(home.resolve("etc/io.quiver.auth.apikey-ops.cfg"), Credentials.apiKeyConfig(key, "ops", "", ""));
            Files.writeString(home.resolve("etc/io.quiver.auth.apikey-dev.cfg"), Credentials.apiKeyConfig(other, "dev", "", ""));
        })) {
            assertEquals(200, call(first, Credentials.bearer(key)).statusCode());
            first.stop();
            Files.delete(first.home().resolve("etc/io.quiver.auth.apikey-ops.cfg"));
            try (QuiverServer second = first.restart()) {
                assertEquals(200, call(second, Credentials.bearer(other)).statusCode(), "the key still in etc/ works");
                assertEquals(401, call(second, Credentials.bearer(key)).statusCode(),
                        "the deleted key's configuration was left in the storage:\n" + second.log());
                assertTrue(second.log().contains("io.quiver.auth.apikey~ops") || second.log().contains("apikey-ops"),
                        second.log());
            }
        }
    }

    @Test
    void aKeyFileThatCannotBeReadStopsTheStartInsteadOfLeavingTheEndpointOpen() throws Exception {
        // without it the loopback endpoint would serve everyone as the local operator
        QuiverServer.Failure failure = QuiverServer.startFailing("auth-unreadable", "core,http,tools-default",
                home -> Files.writeString(home.resolve("etc/io.quiver.auth.apikey-ops.cfg"),
                        "subject = ops\nnote = bad \\u00ZZ\n"));
        assertTrue(failure.exitCode() != 0, "exit " + failure.exitCode());
        assertTrue(failure.log().contains("could not read io.quiver.auth.apikey-ops.cfg"), failure.log());
    }

    private static void awaitStatus(QuiverServer server, Map<String, String> headers, int status) throws Exception {
        long deadline = System.nanoTime() + EFFECT.toNanos();
        int last;
        while ((last = call(server, headers).statusCode()) != status) {
            assertTrue(System.nanoTime() < deadline, "still " + last + ", expected " + status + ":\n" + server.log());
            Thread.sleep(100);
        }
    }

    private static HttpResponse<String> call(QuiverServer server, Map<String, String> headers) throws Exception {
        return Probe.statelessExchange(server.url(), "tools/list", null, Map.of(), headers, T);
    }
}
