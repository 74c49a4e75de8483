package io.quiver.examples.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void theSettleTimeIsOneSecondUnlessGiven() {
        assertEquals(Console.SETTLE_MS, ConsoleHost.Options.parse().settleMs());
        assertEquals(0, ConsoleHost.Options.parse("--settle-ms", "0").settleMs());
        assertEquals(2500, ConsoleHost.Options.parse("--home", "/tmp/h", "--settle-ms", "2500", "--port", "7").settleMs());
    }

    @Test
    void aSettleTimeThatIsNotOneIsRefusedWithTheReason() {
        for (String bad : new String[] {"-1", "60001", "soon", "1e3"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ConsoleHost.Options.parse("--settle-ms", bad));
            assertEquals("--settle-ms takes milliseconds (0-60000), not " + bad, e.getMessage());
        }
        assertEquals("--settle-ms needs a value",
                assertThrows(IllegalArgumentException.class, () -> ConsoleHost.Options.parse("--settle-ms")).getMessage());
    }
}
