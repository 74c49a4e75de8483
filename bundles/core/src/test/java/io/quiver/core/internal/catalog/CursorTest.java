package io.quiver.core.internal.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quiver.core.internal.rpc.McpException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class CursorTest {

    private static final List<String> NAMES = List.of("a", "b", "c", "d", "e");

    @Test
    void pagesThroughEverythingOnce() {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Cursor.Page<String> page = Cursor.page(NAMES, Function.identity(), cursor, 2);
            seen.addAll(page.items());
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null);
        assertEquals(NAMES, seen);
        assertEquals(3, pages);
    }

    @Test
    void lastPageHasNoCursor() {
        assertNull(Cursor.page(NAMES, Function.identity(), null, 10).nextCursor());
    }

    @Test
    void cursorSurvivesRemovalOfTheLastSeenItem() {
        Cursor.Page<String> first = Cursor.page(NAMES, Function.identity(), null, 2);
        List<String> changed = List.of("a", "c", "d", "e");
        assertEquals(List.of("c", "d"), Cursor.page(changed, Function.identity(), first.nextCursor(), 2).items());
    }

    @Test
    void cursorsAreOpaqueAndValidated() {
        String cursor = Cursor.page(NAMES, Function.identity(), null, 2).nextCursor();
        assertEquals(false, cursor.contains("b"));
        McpException bad = assertThrows(McpException.class, () -> Cursor.page(NAMES, Function.identity(), "!!", 2));
        assertEquals(-32602, bad.code());
        assertThrows(McpException.class, () -> Cursor.decode("Zm9v"));
    }
}
