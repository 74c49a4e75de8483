package io.quiver.audit.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.CallEvent;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.TokenBuffer;

/**
 * One call as the audit trail records it. The file's JSON line and the Event Admin event carry the same
 * fields, made here once: what was called, by whom, what was decided and how it ended, and a digest of
 * the arguments. Never the arguments or the result: they may hold secrets, and the event has neither.
 */
final class AuditEntry {

    /** Fixed width, so that lines sort and line up: {@code 2026-07-28T09:15:02.123Z}. */
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /**
     * The longest name (subject, tenant, project, client name, protocol version, tool, invocation id, a
     * decision's stage) a line holds whole. Callers choose most of them (a client its {@code clientInfo} name,
     * anyone the name of a tool that is not there, a token's issuer the subject), and every line carries them:
     * uncapped, a client that names itself with megabytes makes each of its calls a line of megabytes, and a few
     * hundred calls rotate the whole kept history out.
     */
    static final int NAME_LIMIT = 256;

    /**
     * The longest text (a decision's reason, the deciding rule, the ending's detail) kept whole: error texts may
     * quote what the caller sent.
     */
    static final int TEXT_LIMIT = 1024;

    /**
     * Characters written as <code>&#92;uXXXX</code> though JSON lets them stand raw. NEL (U+0085, with the other C1
     * controls) and the line and paragraph separators U+2028 and U+2029 end a line for many readers (Python's
     * {@code splitlines}, editors), which would split a record in two; the bidirectional controls (U+061C,
     * U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) show text in another order than it is stored, so that a
     * line could read as something other than what it holds.
     */
    static final CharacterEscapes ESCAPES = new LineEscapes();

    private AuditEntry() {
    }

    /**
     * The factory of the file's lines: no separator between the lines of a batch (the writer ends each with a
     * newline; the default is a space), and the {@link #ESCAPES}.
     */
    static JsonFactory lineFactory() {
        return JsonFactory.builder().rootValueSeparator((SerializableString) null).characterEscapes(ESCAPES)
                .build();
    }

    /**
     * {@code value} whole when it is at most {@code limit} characters long, otherwise its first {@code limit}
     * (never half a surrogate pair) and {@code ...[cut N chars]}, so that a reader sees that it was cut and by how
     * much.
     */
    static String cap(String value, int limit) {
        if (value == null || value.length() <= limit) {
            return value;
        }
        int keep = Character.isHighSurrogate(value.charAt(limit - 1)) ? limit - 1 : limit;
        return value.substring(0, keep) + "...[cut " + (value.length() - keep) + " chars]";
    }

    /**
     * The fields of a call as a map (the Event Admin event's source), in the order a reader expects them; a
     * value unknown is {@code null}. Read back from what {@link #write} writes, so the file's line and the
     * event cannot differ.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> of(CallEvent event) {
        try (TokenBuffer fields = TokenBuffer.forGeneration()) {
            write(fields, event);
            try (JsonParser parser = fields.asParser()) {
                return JsonMapper.shared().readValue(parser, LinkedHashMap.class);
            }
        }
    }

    // the field names encoded once: each line writes seventeen of them
    private static final SerializableString TIME_NAME = new SerializedString("time");
    private static final SerializableString INVOCATION_ID = new SerializedString("invocationId");
    private static final SerializableString SUBJECT = new SerializedString("subject");
    private static final SerializableString TENANT = new SerializedString("tenant");
    private static final SerializableString PROJECT = new SerializedString("project");
    private static final SerializableString CLIENT_NAME = new SerializedString("clientName");
    private static final SerializableString PROTOCOL_VERSION = new SerializedString("protocolVersion");
    private static final SerializableString TOOL = new SerializedString("tool");
    private static final SerializableString STAGE = new SerializedString("stage");
    private static final SerializableString REASON = new SerializedString("reason");
    private static final SerializableString RULE = new SerializedString("rule");
    private static final SerializableString ENDING = new SerializedString("ending");
    private static final SerializableString DETAIL = new SerializedString("detail");
    private static final SerializableString ARGUMENTS_DIGEST = new SerializedString("argumentsDigest");
    private static final SerializableString AUTHENTICATED = new SerializedString("authenticated");
    private static final SerializableString ALLOWED = new SerializedString("allowed");
    private static final SerializableString DURATION_MS = new SerializedString("durationMs");
    private static final SerializableString DECISIONS = new SerializedString("decisions");

    /**
     * The fields of a call written straight to a generator: the file's line without a map per call and a map
     * per decision, or Jackson's look-up of each value's serializer (a tenth of the bytes a trivial call
     * allocated, and most of the writer's time). Every text is capped ({@link #NAME_LIMIT}, {@link #TEXT_LIMIT}),
     * the server's own ones too: which of them a caller can reach through some path is not this class's to know.
     */
    static void write(JsonGenerator g, CallEvent event) {
        CallerIdentity caller = event.caller();
        g.writeStartObject();
        string(g, TIME_NAME, time(event.started()));
        string(g, INVOCATION_ID, cap(event.invocationId(), NAME_LIMIT));
        string(g, SUBJECT, caller == null ? null : cap(caller.subject(), NAME_LIMIT));
        string(g, TENANT, caller == null ? null : cap(caller.tenant(), NAME_LIMIT));
        string(g, PROJECT, caller == null ? null : cap(caller.project(), NAME_LIMIT));
        g.writeName(AUTHENTICATED);
        g.writeBoolean(caller != null && caller.authenticated());
        string(g, CLIENT_NAME, cap(event.clientName(), NAME_LIMIT));
        string(g, PROTOCOL_VERSION, cap(event.protocolVersion(), NAME_LIMIT));
        string(g, TOOL, cap(event.tool(), NAME_LIMIT));
        g.writeName(DECISIONS);
        g.writeStartArray();
        String rule = null;
        for (CallEvent.Step step : event.decisions()) {
            g.writeStartObject();
            string(g, STAGE, cap(step.stage(), NAME_LIMIT));
            g.writeName(ALLOWED);
            g.writeBoolean(step.allowed());
            string(g, REASON, cap(step.reason(), TEXT_LIMIT));
            g.writeEndObject();
            if (rule == null && !step.allowed()) {
                rule = step.reason(); // the first step that said no decided the call
            }
        }
        g.writeEndArray();
        string(g, RULE, cap(rule, TEXT_LIMIT));
        g.writeName(DURATION_MS);
        if (event.took() == null) {
            g.writeNull();
        } else {
            // microseconds are kept: most calls take well under a millisecond
            g.writeNumber(event.took().toNanos() / 1000 / 1000.0);
        }
        string(g, ENDING, event.ending() == null ? null : event.ending().name());
        string(g, DETAIL, cap(event.detail(), TEXT_LIMIT));
        string(g, ARGUMENTS_DIGEST, cap(event.argumentsDigest(), NAME_LIMIT));
        g.writeEndObject();
    }

    private static void string(JsonGenerator g, SerializableString name, String value) {
        g.writeName(name);
        if (value == null) {
            g.writeNull();
        } else {
            g.writeString(value);
        }
    }

    /** The line that says call events were lost because the writer could not keep up. */
    static Map<String, Object> dropped(Instant now, long count) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("time", time(now));
        fields.put("dropped", count);
        return fields;
    }

    /**
     * The fields as Event Admin properties: flat keys with the values Event Admin and LDAP filters take.
     * The decisions become three arrays of one length ({@code decisions.stage}, {@code decisions.allowed},
     * {@code decisions.reason}); unknown values are left out, since a property cannot be null.
     */
    static Map<String, Object> eventProperties(Map<String, Object> fields) {
        Map<String, Object> properties = new LinkedHashMap<>();
        fields.forEach((key, value) -> {
            if (value instanceof List<?> decisions) {
                String[] stages = new String[decisions.size()];
                boolean[] allowed = new boolean[decisions.size()];
                String[] reasons = new String[decisions.size()];
                for (int i = 0; i < decisions.size(); i++) {
                    Map<?, ?> d = (Map<?, ?>) decisions.get(i);
                    stages[i] = String.valueOf(d.get("stage"));
                    allowed[i] = Boolean.TRUE.equals(d.get("allowed"));
                    reasons[i] = d.get("reason") == null ? "" : String.valueOf(d.get("reason"));
                }
                properties.put(key + ".stage", stages);
                properties.put(key + ".allowed", allowed);
                properties.put(key + ".reason", reasons);
            } else if (value != null) {
                properties.put(key, value);
            }
        });
        return properties;
    }

    /** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: where {@link #TIME}'s output is 24 characters. */
    private static final long FIRST = -62_135_596_800L;
    private static final long LAST = 253_402_300_799L;

    /**
     * {@link #TIME}'s text, written out by hand: the formatter made about 7 % of the bytes a
     * trivial call allocated (its fraction goes through {@code BigDecimal}), on a line per call.
     */
    static String time(Instant instant) {
        if (instant == null) {
            return null;
        }
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST || seconds > LAST) {
            return TIME.format(instant);
        }
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, instant.getNano(), ZoneOffset.UTC);
        char[] c = "0000-00-00T00:00:00.000Z".toCharArray();
        digits(c, 0, 4, t.getYear());
        digits(c, 5, 2, t.getMonthValue());
        digits(c, 8, 2, t.getDayOfMonth());
        digits(c, 11, 2, t.getHour());
        digits(c, 14, 2, t.getMinute());
        digits(c, 17, 2, t.getSecond());
        digits(c, 20, 3, t.getNano() / 1_000_000);
        return new String(c);
    }

    /** Writes {@code value} as {@code width} decimal digits, zero-padded, at {@code at}. */
    private static void digits(char[] c, int at, int width, int value) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** {@link #ESCAPES}: JSON's own for ASCII, <code>&#92;uXXXX</code> for the characters listed there. */
    private static final class LineEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private static final int[] ASCII = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ASCII;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return escaped(ch) ? new SerializedString(String.format("\\u%04X", ch)) : null;
        }

        static boolean escaped(int ch) {
            return ch >= 0x80 && ch <= 0x9F || ch == 0x061C || ch == 0x200E || ch == 0x200F
                    || ch >= 0x2028 && ch <= 0x202E || ch >= 0x2066 && ch <= 0x2069;
        }
    }
}
