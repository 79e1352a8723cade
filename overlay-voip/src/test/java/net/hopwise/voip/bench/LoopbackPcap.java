package net.hopwise.voip.bench;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A nanosecond pcap of Ethernet frames on loopback, as tcpdump writes them, for the analysers' tests. */
final class LoopbackPcap {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    LoopbackPcap() {
        ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0xa1b23c4d).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(262144)
                .putInt(1);
        out.writeBytes(header.array());
    }

    /** A SIPp RTP packet of 160 payload bytes, each {@code mark}. */
    LoopbackPcap rtp(long nanos, int src, int dst, int seq, long timestamp, long ssrc, int mark) {
        ByteBuffer rtp = ByteBuffer.allocate(12 + 160);
        rtp.put((byte) 0x80).put((byte) 0).putShort((short) seq).putInt((int) timestamp).putInt((int) ssrc);
        while (rtp.hasRemaining()) {
            rtp.put((byte) mark);
        }
        return udp(nanos, src, dst, rtp.array());
    }

    LoopbackPcap rtp(long nanos, int src, int dst, int seq, long timestamp, long ssrc) {
        return rtp(nanos, src, dst, seq, timestamp, ssrc, 0);
    }

    LoopbackPcap udp(long nanos, int src, int dst, byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(14 + 20 + 8 + payload.length);
        frame.position(12);
        frame.putShort((short) 0x0800);
        frame.put((byte) 0x45).put((byte) 0).putShort((short) (20 + 8 + payload.length)).putInt(0)
                .put((byte) 64).put((byte) 17).putShort((short) 0).putInt(0x7f000001).putInt(0x7f000001);
        frame.putShort((short) src).putShort((short) dst).putShort((short) (8 + payload.length)).putShort((short) 0);
        frame.put(payload);
        byte[] bytes = frame.array();
        ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        record.putInt((int) (nanos / 1_000_000_000L)).putInt((int) (nanos % 1_000_000_000L)).putInt(bytes.length)
                .putInt(bytes.length);
        out.writeBytes(record.array());
        out.writeBytes(bytes);
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }
}
