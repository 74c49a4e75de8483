package io.quiver.transport.http.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A POST of the core lane from 127.0.0.1 without headers, which records the answers it is given. */
class RecordingPost implements FastPost {

    /** One answer: its status, headers, content type, body as text (null for none), and what runs once it is written. */
    record Answer(int status, Map<String, String> headers, String type, String body, Runnable written) {
    }

    final List<Answer> answers = new ArrayList<>();

    @Override
    public String header(String name) {
        return null;
    }

    @Override
    public Map<String, String> headers() {
        return Map.of();
    }

    @Override
    public String remoteAddr() {
        return "127.0.0.1";
    }

    @Override
    public String scheme() {
        return "http";
    }

    @Override
    public String authority() {
        return "127.0.0.1:7711";
    }

    @Override
    public void watchClose(Runnable gone) {
    }

    @Override
    public void answer(int status, Map<String, String> headers, String contentType, byte[] body, Runnable written) {
        answers.add(new Answer(status, headers, contentType, body == null ? null : new String(body, StandardCharsets.UTF_8),
                written));
    }

    @Override
    public void handOver(Handover handover) {
        throw new AssertionError("nothing is handed over here");
    }
}
