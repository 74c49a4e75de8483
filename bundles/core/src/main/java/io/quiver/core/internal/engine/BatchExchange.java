package io.quiver.core.internal.engine;

import io.quiver.api.transport.Exchange;
import io.quiver.api.transport.MessageSink;
import io.quiver.api.transport.Receipt;
import io.quiver.api.transport.StreamPolicy;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The requests of one JSON-RPC batch (2025-03-26), served as one exchange. Each request runs as it would
 * alone, side by side with the others; the messages they send on the way (progress, log messages,
 * questions to the client) go out as they come, and the responses go out together once the last request
 * is over: one array, in the batch's order, with the errors of elements that were refused at once (an
 * invalid element, a repeated id) in their places. A request that owes no response (cancelled) has no
 * place in it; when none is owed at all the exchange completes with none. (The HTTP transport writes the array
 * of a streamed answer as one event per response.)
 */
final class BatchExchange implements Exchange {

    /** One element of the batch that is answered: a request being served, or an error decided already. */
    record Part(Exchange exchange, byte[] error) {
        static Part of(Exchange exchange) {
            return new Part(exchange, null);
        }

        static Part refused(byte[] error) {
            return new Part(null, error);
        }
    }

    private final List<Part> parts;
    private final List<Exchange> exchanges;
    private final AtomicReferenceArray<byte[]> answers;
    private final AtomicInteger left;

    /** @param parts the batch's answered elements in order, at least one of them a request being served */
    BatchExchange(List<Part> parts) {
        this.parts = List.copyOf(parts);
        this.exchanges = parts.stream().map(Part::exchange).filter(e -> e != null).toList();
        if (exchanges.isEmpty()) {
            throw new IllegalArgumentException("a batch exchange serves at least one request");
        }
        this.answers = new AtomicReferenceArray<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            answers.set(i, parts.get(i).error());
        }
        this.left = new AtomicInteger(exchanges.size());
    }

    @Override
    public void start(MessageSink sink) {
        for (int i = 0; i < parts.size(); i++) {
            Exchange exchange = parts.get(i).exchange();
            if (exchange != null) {
                exchange.start(new PartSink(i, sink));
            }
        }
    }

    @Override
    public String method() {
        return exchanges.get(0).method();
    }

    @Override
    public List<String> methods() {
        return exchanges.stream().map(Exchange::method).toList();
    }

    // not quick(): a batch is never served by runNow, so it never claims to wait on nothing

    @Override
    public String protocolVersion() {
        return exchanges.get(0).protocolVersion();
    }

    @Override
    public StreamPolicy streamPolicy() {
        return exchanges.get(0).streamPolicy();
    }

    @Override
    public void abandon() {
        exchanges.forEach(Exchange::abandon);
    }

    /** Each answered request's refusal, or its error decided already, as the batch's one array. */
    @Override
    public byte[] refusal(int code, String message) {
        List<byte[]> errors = new ArrayList<>(parts.size());
        for (Part part : parts) {
            errors.add(part.exchange() != null ? part.exchange().refusal(code, message) : part.error());
        }
        return join(errors);
    }

    /** The responses given so far, in order, as one JSON array; null when none is owed. */
    private byte[] joined() {
        List<byte[]> given = new ArrayList<>(answers.length());
        for (int i = 0; i < answers.length(); i++) {
            given.add(answers.get(i));
        }
        return join(given);
    }

    /** Responses (or a refused batch's errors) as one JSON array, those that are null left out; null when all are. */
    static byte[] join(List<byte[]> responses) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] response : responses) {
            if (response != null) {
                out.write(out.size() == 0 ? '[' : ',');
                out.writeBytes(response);
            }
        }
        if (out.size() == 0) {
            return null;
        }
        out.write(']');
        return out.toByteArray();
    }

    /** Where one request of the batch delivers: its messages pass on, its response waits for the others'. */
    private final class PartSink implements MessageSink {
        private final int index;
        private final MessageSink batch;

        PartSink(int index, MessageSink batch) {
            this.index = index;
            this.batch = batch;
        }

        @Override
        public void send(byte[] message) {
            batch.send(message);
        }

        @Override
        public void complete(byte[] response) {
            answers.set(index, response);
            if (left.decrementAndGet() == 0) {
                batch.complete(joined());
            }
        }

        /** A refusal of one request is its error response in the array: the batch as a whole went through. */
        @Override
        public void fail(Receipt.Reason reason, byte[] response) {
            complete(response);
        }
    }
}
