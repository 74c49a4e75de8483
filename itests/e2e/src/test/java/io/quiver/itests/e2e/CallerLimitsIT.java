package io.quiver.itests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-caller limits: a subject over its request rate gets 429 with {@code Retry-After} while another
 * subject is served as usual, and the refused calls never ran (the witness file counts exactly the
 * admitted ones); a subject with as many tool calls in progress as it may gets 429 for one more, and
 * its share comes back when they end.
 */
class CallerLimitsIT {

    private static final Duration T = Duration.ofSeconds(10);
    private static final String GREEDY = Credentials.newApiKey();
    private static final String POLITE = Credentials.newApiKey();
    private static final String BUSY = Credentials.newApiKey();

    private static QuiverServer server;
    private static Path witness;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("limits", "core,http,tools-default", home -> {
            Path etc = home.resolve("etc");
            Files.writeString(etc.resolve("io.quiver.auth.apikey-greedy.cfg"), Credentials.apiKeyConfig(GREEDY, "greedy", "", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-polite.cfg"), Credentials.apiKeyConfig(POLITE, "polite", "", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-busy.cfg"), Credentials.apiKeyConfig(BUSY, "busy", "", ""));
            Files.writeString(etc.resolve("io.quiver.transport.http.cfg"),
                    "subjectRequestsPerSecond = 20\nsubjectBurst = 20\nmaxConcurrentCallsPerSubject = 2\n");
            witness = Witness.install(home);
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (call(POLITE, "warm-up", 0).statusCode() != 200 || !Files.exists(witness)) {
            assertTrue(System.nanoTime() < deadline, "the witness tool never came:\n" + server.log());
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aSubjectOverItsRateIsRefusedAndAnotherIsNot() throws Exception {
        int admitted = 0;
        int refused = 0;
        for (int i = 0; i < 1000; i++) {
            HttpResponse<String> r = call(GREEDY, "greedy-" + i, 0);
            if (r.statusCode() == 200) {
                admitted++;
            } else {
                assertEquals(429, r.statusCode(), r.body());
                long retry = Long.parseLong(r.headers().firstValue("Retry-After").orElse("0"));
                assertTrue(retry >= 1, "Retry-After: " + retry);
                refused++;
            }
        }
        assertTrue(refused > 500, "1000 requests at full speed against 20/s: " + refused + " refused");
        for (int i = 0; i < 5; i++) {
            assertEquals(200, call(POLITE, "polite-" + i, 0).statusCode(), "another subject is unaffected");
        }
        long ran = Files.readAllLines(witness).stream().filter(l -> l.startsWith("greedy-")).count();
        assertEquals(admitted, ran, "exactly the admitted calls ran");
    }

    @Test
    void oneCallTooManyInProgressIsRefusedAndTheShareComesBack() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String note = "slow-" + i;
            slow.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return call(BUSY, note, 3000);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        long deadline = System.nanoTime() + T.toNanos();
        while (Files.readAllLines(witness).stream().filter(l -> l.startsWith("started slow-")).count() < 2) {
            assertTrue(System.nanoTime() < deadline, "the slow calls never started");
            Thread.sleep(20);
        }
        HttpResponse<String> third = call(BUSY, "third", 0);
        assertEquals(429, third.statusCode(), third.body());
        assertTrue(third.headers().firstValue("Retry-After").isPresent());
        for (CompletableFuture<HttpResponse<String>> call : slow) {
            assertEquals(200, call.get().statusCode());
        }
        assertEquals(200, call(BUSY, "after", 0).statusCode(), "the calls that ended gave their share back");
        assertTrue(Files.readAllLines(witness).stream().noneMatch(l -> l.startsWith("third")), "the refused call ran");
    }

    private static HttpResponse<String> call(String key, String note, int sleepMs) throws Exception {
        Map<String, Object> arguments = sleepMs > 0 ? Map.of("note", note, "sleepMs", sleepMs) : Map.of("note", note);
        return Probe.statelessExchange(server.url(), "tools/call", "witness",
                Map.of("name", "witness", "arguments", arguments), Credentials.bearer(key), T);
    }
}
