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
import tools.jackson.databind.JsonNode;

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
    private static final String BATCHER = Credentials.newApiKey();
    private static final String BATCH_FLOOD = Credentials.newApiKey();

    private static QuiverServer server;
    private static Path witness;

    @BeforeAll
    static void start() throws Exception {
        server = QuiverServer.start("limits", "core,http,tools-default", home -> {
            Path etc = home.resolve("etc");
            Files.writeString(etc.resolve("io.quiver.auth.apikey-greedy.cfg"), Credentials.apiKeyConfig(GREEDY, "greedy", "", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-polite.cfg"), Credentials.apiKeyConfig(POLITE, "polite", "", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-busy.cfg"), Credentials.apiKeyConfig(BUSY, "busy", "", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-batcher.cfg"), Credentials.apiKeyConfig(BATCHER, "batcher", "", ""));
            Files.writeString(etc.resolve("io.quiver.auth.apikey-flood.cfg"),
                    Credentials.apiKeyConfig(BATCH_FLOOD, "flood", "", ""));
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

    @Test
    void aBatchCountsEachOfItsCallsInProgress() throws Exception {
        Map<String, String> bearer = Credentials.bearer(BATCHER);
        String session = Batches.open(server.url(), "2025-03-26", bearer);
        CompletableFuture<HttpResponse<String>> batch = CompletableFuture.supplyAsync(() -> {
            try {
                return Batches.post(server.url(), session, "[" + Batches.witness(1, "batched-1", 3000) + ","
                        + Batches.witness(2, "batched-2", 3000) + "]", bearer);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Await.until(() -> Files.readAllLines(witness).stream().filter(l -> l.startsWith("started batched-")).count() == 2, T,
                () -> "the batched calls to start");
        HttpResponse<String> lone = call(BATCHER, "lone", 0);
        assertEquals(429, lone.statusCode(), "the batch holds both of the caller's calls: " + lone.body());
        String second = "[" + Batches.witness(7, "second-batch", 0) + "," + Batches.ping(8) + "]";
        HttpResponse<String> refused = Batches.post(server.url(), session, second, bearer);
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals(200, batch.get().statusCode());
        assertEquals(List.of(1, 2), Batches.ids(Batches.responses(batch.get())), batch.get().body());
        assertEquals(200, call(BATCHER, "after-batch", 0).statusCode(), "the batch gave both back");
        // the refused batch left nothing behind: its ids are free again and its call takes one place
        HttpResponse<String> again = Batches.post(server.url(), session, second, bearer);
        assertEquals(200, again.statusCode(), again.body());
        List<JsonNode> answers = Batches.responses(again);
        assertEquals(List.of(7, 8), Batches.ids(answers), again.body());
        assertEquals("witnessed second-batch by batcher", answers.get(0).path("result").path("content").path(0)
                .path("text").asString(), again.body());
        List<String> ran = Files.readAllLines(witness);
        assertTrue(ran.stream().noneMatch(l -> l.startsWith("lone")), "the refused call ran");
        assertEquals(1, ran.stream().filter(l -> l.startsWith("second-batch")).count(), "the refused batch ran: " + ran);
    }

    @Test
    void aBatchCountsEachOfItsRequestsAgainstTheRate() throws Exception {
        Map<String, String> bearer = Credentials.bearer(BATCH_FLOOD);
        String session = Batches.open(server.url(), "2025-03-26", bearer);
        StringBuilder pings = new StringBuilder("[");
        for (int i = 1; i <= 10; i++) {
            pings.append(i > 1 ? "," : "").append(Batches.ping(i));
        }
        String batch = pings.append(']').toString();
        int admitted = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            HttpResponse<String> r = Batches.post(server.url(), session, batch, bearer);
            if (r.statusCode() == 200) {
                admitted++;
            } else {
                assertEquals(429, r.statusCode(), r.body());
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        // 20 a second with a burst of 20, two of them spent opening the session: each admitted batch took ten
        double most = (20 + 20 * seconds) / 10 + 1;
        assertTrue(admitted >= 1 && admitted <= most, admitted + " batches of ten admitted in " + seconds + " s");
    }

    private static HttpResponse<String> call(String key, String note, int sleepMs) throws Exception {
        Map<String, Object> arguments = sleepMs > 0 ? Map.of("note", note, "sleepMs", sleepMs) : Map.of("note", note);
        return Probe.statelessExchange(server.url(), "tools/call", "witness",
                Map.of("name", "witness", "arguments", arguments), Credentials.bearer(key), T);
    }
}
