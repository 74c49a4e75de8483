package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.rpc.McpException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What redeemed states are remembered: each one once, and no caller can fill the record against the others. */
class RequestStateTest {

    private final RequestState states = new RequestState(List.of("a-signing-key-of-at-least-32-characters"), 60_000, 10, 4);

    private String issue(String caller) {
        return states.sign(caller, "tools/call t", Map.of(), Set.of("k"));
    }

    @Test
    void aStateIsRedeemedOnce() {
        String state = issue("acme//alice");
        states.redeem(state, "acme//alice", "tools/call t");
        assertThrows(McpException.class, () -> states.redeem(state, "acme//alice", "tools/call t"));
    }

    /**
     * The client carries the answers to the next round: a sensitive one (a password a command asked for) must be
     * nowhere in what it sees, in any encoding, while the next round gets it back; a state sealed with a key rotated
     * out of first place still opens, one sealed with a key no longer configured does not.
     */
    @Test
    void theAnswersAStateCarriesAreSealedNotJustSigned() {
        JsonNode answer = Json.MAPPER.readTree("{\"method\":\"elicitation/create\",\"response\":{\"action\":\"accept\","
                + "\"content\":{\"answer\":\"TOPSECRET-hunter2\"}}}");
        String state = states.sign("acme//alice", "tools/call t", Map.of("pw", answer), Set.of("next"));
        String decoded = new String(Base64.getUrlDecoder().decode(state), StandardCharsets.ISO_8859_1);
        for (String secret : new String[] {"TOPSECRET", "hunter2", "acme//alice", "elicitation"}) {
            assertFalse(state.contains(secret) || decoded.contains(secret), secret + " is readable in the state");
        }
        RequestState.Verified verified = states.redeem(state, "acme//alice", "tools/call t");
        assertEquals("TOPSECRET-hunter2", verified.answers().get("pw").path("response").path("content").path("answer").asString());
        assertEquals(Set.of("next"), verified.asked());

        String old = states.sign("acme//alice", "tools/call t", Map.of(), Set.of("k"));
        states.configure(List.of("a-newer-key-of-at-least-32-characters-too", "a-signing-key-of-at-least-32-characters"), 60_000);
        assertEquals(Set.of("k"), states.redeem(old, "acme//alice", "tools/call t").asked(), "the old key still opens");
        String sealed = states.sign("acme//alice", "tools/call t", Map.of(), Set.of("k"));
        states.configure(List.of("a-signing-key-of-at-least-32-characters"), 60_000);
        assertThrows(McpException.class, () -> states.redeem(sealed, "acme//alice", "tools/call t"), "its key is gone");
    }

    @Test
    void oneCallerFillingTheRecordDoesNotRefuseAnothersStates() {
        // before, 100,000 redeemed states of one caller made every caller's next state fail for ten minutes
        for (int i = 0; i < 50; i++) {
            states.redeem(issue("acme//mallory"), "acme//mallory", "tools/call t");
        }
        assertEquals(4, states.remembered("acme//mallory"), "a caller's oldest are forgotten beyond its share");
        for (int i = 0; i < 6; i++) {
            states.redeem(issue("globex//bob" + i), "globex//bob" + i, "tools/call t");
        }
        String bobs = issue("globex//bob");
        states.redeem(bobs, "globex//bob", "tools/call t"); // the record is full: room is made, not refused
        assertEquals(4 - 1, states.remembered("acme//mallory"), "room was taken from the caller with the most");
        assertThrows(McpException.class, () -> states.redeem(bobs, "globex//bob", "tools/call t"),
                "and a replay is still refused");
    }
}
