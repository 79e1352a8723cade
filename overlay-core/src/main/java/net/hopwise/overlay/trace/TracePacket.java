package net.hopwise.overlay.trace;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The body of a trace probe (type {@link #PROBE}) or of its answer (type {@link #ANSWER}); both have
 * the same layout, in network byte order:
 *
 * <pre>
 *  0  u32 trace id: the source's number for the trace
 *  4  u8  probe: the hop number whose node answers (1 = the source's neighbour)
 *  5  u8  metric: the {@link RoutingMetric} ordinal whose routes the probe follows (the answer too)
 *  6  u8  status: 0 in a probe; in an answer 1 (the probe's hop reached), 2 (the destination
 *         reached) or 3 (the answerer has no route onwards)
 *  7  u8  at: 0 in a probe; in an answer, the hop number of the node it is sent to on its way back
 *         along the probe's records (0 = the source), one less at each relay
 *  8  i64 source: the node that traces, where the answer goes
 * 16  i64 destination: the node traced
 * 24  u8  record count, 1 to probe
 * 25  records, 24 bytes each, record k describing hop k:
 *       i64 node id of hop k
 *       f64 cost under the metric of the link from hop k-1 to hop k, as hop k-1's routing uses it
 *       i64 that link's smoothed round trip in nanoseconds as hop k-1 measures it; -1 when unknown
 * </pre>
 *
 * <p>Every node that forwards a probe appends the record of the link it forwards on, so the node
 * that answers finds itself in the last record, and the answer retraces those records back to the
 * source: it needs no route to the source (a node may answer before its routes know the way back),
 * and its round trip crosses the same links both ways. Decoding is total: anything that does not fit this
 * layout and its bounds decodes to null, never to an exception.
 */
record TracePacket(long traceId, int probe, RoutingMetric metric, int status, int at, NodeId source,
        NodeId destination, List<Hop> records) {
    static final int PROBE = 64;
    static final int ANSWER = 65;

    static final int PROBING = 0;
    static final int HOP_REACHED = 1;
    static final int DESTINATION_REACHED = 2;
    static final int NO_ROUTE = 3;

    static final int FIXED_LENGTH = 25;
    static final int RECORD_LENGTH = 24;
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    /** One hop's record: the node, and the link that led to it. */
    record Hop(NodeId node, double linkCost, long linkRttNanos) {}

    TracePacket {
        records = Collections.unmodifiableList(records);
    }

    /** Most records a body of {@code maxBody} bytes holds: bounds a trace's length besides the hop limit. */
    static int maxRecords(int maxBody) {
        return Math.min(255, (maxBody - FIXED_LENGTH) / RECORD_LENGTH);
    }

    TracePacket withRecord(Hop hop) {
        List<Hop> more = new ArrayList<>(records.size() + 1);
        more.addAll(records);
        more.add(hop);
        return new TracePacket(traceId, probe, metric, status, at, source, destination, more);
    }

    /** The answer to this probe, on its way to the hop before the answerer's. */
    TracePacket answer(int answerStatus) {
        return new TracePacket(traceId, probe, metric, answerStatus, records.size() - 1, source, destination, records);
    }

    /** This answer, on its way one hop further back. */
    TracePacket relayed() {
        return new TracePacket(traceId, probe, metric, status, at - 1, source, destination, records);
    }

    /** The node at a hop of this packet's path: the source at 0. */
    NodeId node(int hop) {
        return hop == 0 ? source : records.get(hop - 1).node();
    }

    /** The node the last record names: the probe's current holder, the answer's author. */
    NodeId last() {
        return records.get(records.size() - 1).node();
    }

    ByteBuf encode(ByteBufAllocator allocator) {
        ByteBuf out = allocator.buffer(FIXED_LENGTH + RECORD_LENGTH * records.size());
        out.writeInt((int) traceId);
        out.writeByte(probe);
        out.writeByte(metric.ordinal());
        out.writeByte(status);
        out.writeByte(at);
        out.writeLong(source.value());
        out.writeLong(destination.value());
        out.writeByte(records.size());
        for (Hop h : records) {
            out.writeLong(h.node().value());
            out.writeDouble(h.linkCost());
            out.writeLong(h.linkRttNanos());
        }
        return out;
    }

    /**
     * Reads a body of the given type without moving its indices.
     *
     * @return null when it is not a well-formed probe or answer: wrong length, a probe or count out of
     *     range, an unknown metric or status, a node id 0, a cost that is negative or not a number
     */
    static TracePacket decode(int type, ByteBuf body) {
        int at = body.readerIndex();
        int length = body.readableBytes();
        if (length < FIXED_LENGTH) {
            return null;
        }
        long traceId = body.getUnsignedInt(at);
        int probe = body.getUnsignedByte(at + 4);
        int metric = body.getUnsignedByte(at + 5);
        int status = body.getUnsignedByte(at + 6);
        int back = body.getUnsignedByte(at + 7);
        int count = body.getUnsignedByte(at + 24);
        boolean statusFits = type == PROBE ? status == PROBING && back == 0
                : type == ANSWER && status >= HOP_REACHED && status <= NO_ROUTE && back < count;
        if (!statusFits || probe == 0 || metric >= METRICS.length || count == 0 || count > probe
                || length != FIXED_LENGTH + count * RECORD_LENGTH) {
            return null;
        }
        List<Hop> records = new ArrayList<>(count);
        for (int i = 0, r = at + FIXED_LENGTH; i < count; i++, r += RECORD_LENGTH) {
            long node = body.getLong(r);
            double cost = body.getDouble(r + 8);
            long rtt = body.getLong(r + 16);
            if (node == 0 || !(cost >= 0) || rtt < -1) {
                return null;
            }
            records.add(new Hop(new NodeId(node), cost, rtt));
        }
        long source = body.getLong(at + 8);
        long destination = body.getLong(at + 16);
        if (source == 0 || destination == 0) {
            return null; // 0 is no node's id
        }
        return new TracePacket(traceId, probe, METRICS[metric], status, back, new NodeId(source),
                new NodeId(destination), records);
    }
}
