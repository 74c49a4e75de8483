package io.quiver.core.internal.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class UriTemplateTest {

    @Test
    void variablesMatchWithinASegmentTheFirstTakingAllItCan() {
        UriTemplate template = new UriTemplate("docs://files/{name}.{ext}");
        assertEquals(Map.of("name", "report.tar", "ext", "gz"), template.match("docs://files/report.tar.gz"));
        assertEquals(Map.of("name", "a b", "ext", "txt"), template.match("docs://files/a%20b.txt"));
        assertNull(template.match("docs://files/noext"));
        assertNull(template.match("docs://files/a/b.txt"), "a variable holds no slash");
    }

    /**
     * A URI made to backtrack (a client's to send, against templates an upstream lists) matches nothing within a
     * bounded number of steps instead of holding a request thread for hours; before, the first took ~30 s and
     * the second did not end.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aUriMadeToBacktrackMatchesNothingInBoundedSteps() {
        UriTemplate dotted = new UriTemplate("docs://files/{name}.{ext}");
        assertNull(dotted.match("docs://files/" + "a.".repeat(80_000) + "/"));
        UriTemplate adjacent = new UriTemplate("x://{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}{k}{l}{m}{n}/end");
        assertNull(adjacent.match("x://" + "a".repeat(37) + "/"));
        assertEquals("abc", adjacent.match("x://abcdefghijklmnop/end").get("a"), "an ordinary URI still matches");
    }
}
