package io.quiver.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void columnsAreAlignedAndTheLastIsNeverCut() {
        String table = new Table(8, "ID", "NAME", "TEXT")
                .row(1, "short", "a long last column that is not cut")
                .row(22, "a very long name", null)
                .toString();
        assertEquals("ID  NAME      TEXT\n"
                + "1   short     a long last column that is not cut\n"
                + "22  a ver...\n", table);
    }

    @Test
    void lineBreaksInCellsBecomeSpaces() {
        assertEquals("A\nline one line two\n", new Table(40, "A").row("line one\n  line two").toString());
    }
}
