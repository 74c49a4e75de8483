package io.quiver.tools.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The pieces of the reference server: max_length characters from start_index, and where to go on. */
class PagingTest {

    @Test
    void aShortTextIsOnePieceWithoutAContinuation() {
        Paging.Piece piece = Paging.piece("hello", 0, 5000);
        assertEquals("hello", piece.text());
        assertEquals(5, piece.total());
        assertEquals(-1, piece.next());
    }

    @Test
    void aLongTextIsCutAndTheModelToldWhereToGoOn() {
        String text = "0123456789".repeat(3);
        Paging.Piece first = Paging.piece(text, 0, 12);
        assertEquals("012345678901\n\n<error>Content truncated. Call the fetch tool with a start_index of 12 to get more"
                + " content.</error>", first.text());
        assertEquals(12, first.next());
        Paging.Piece second = Paging.piece(text, 12, 12);
        assertEquals("234567890123" + Paging.continuation(24), second.text());
        Paging.Piece last = Paging.piece(text, 24, 12);
        assertEquals("456789", last.text(), "the last piece has no continuation");
        assertEquals(-1, last.next());
        assertEquals(text, "012345678901" + "234567890123" + "456789");
    }

    @Test
    void aPieceThatEndsExactlyAtTheEndHasNoContinuation() {
        assertEquals("abcd", Paging.piece("abcd", 0, 4).text());
        assertEquals("cd", Paging.piece("abcd", 2, 2).text());
    }

    @Test
    void pastTheEndThereIsNoPiece() {
        assertNull(Paging.piece("abcd", 4, 10));
        assertNull(Paging.piece("abcd", 100, 10));
        assertNull(Paging.piece("", 0, 10));
    }

    @Test
    void charactersAreCodePointsAndNeverSplit() {
        String text = "a\uD83D\uDE00b\uD83D\uDE00c"; // a😀b😀c: 5 characters, 7 UTF-16 units
        Paging.Piece first = Paging.piece(text, 0, 2);
        assertEquals("a\uD83D\uDE00" + Paging.continuation(2), first.text());
        assertEquals(5, first.total());
        assertEquals("b\uD83D\uDE00" + Paging.continuation(4), Paging.piece(text, 2, 2).text());
        assertEquals("c", Paging.piece(text, 4, 2).text());
    }
}
