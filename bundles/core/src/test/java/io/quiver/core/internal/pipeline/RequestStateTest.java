package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quiver.core.internal.rpc.McpException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

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
