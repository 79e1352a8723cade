package net.hopwise.examples.fairness;

import java.nio.ByteBuffer;

/**
 * Completes the TCP or UDP checksum of an IPv4 packet inside an Ethernet frame. Between network
 * namespaces the kernel leaves a packet's checksum for hardware to fill in (the veths offer the
 * offload, and no hardware ever sees the packet); a frame that leaves the kernel through a tunnel
 * to {@link WireRelay} and comes back would then fail the receiver's check. The relay does what
 * the hardware would have done. Anything but an unfragmented IPv4 TCP or UDP packet is left as it is.
 */
final class InnerChecksum {
    private static final int ETHERNET_HEADER = 14;
    private static final int TCP = 6;
    private static final int UDP = 17;

    private InnerChecksum() {}

    /**
     * Writes the checksum of the packet in the frame that starts at {@code frame}'s position.
     *
     * @return whether there was a checksum to write
     */
    static boolean complete(ByteBuffer datagram, int frame) {
        int ip = frame + ETHERNET_HEADER;
        if (datagram.limit() < ip + 20 || (datagram.getShort(frame + 12) & 0xFFFF) != 0x0800
                || (datagram.get(ip) & 0xF0) != 0x40) {
            return false;
        }
        int headerLength = (datagram.get(ip) & 0x0F) * 4;
        int totalLength = datagram.getShort(ip + 2) & 0xFFFF;
        int flagsAndOffset = datagram.getShort(ip + 6) & 0xFFFF;
        int protocol = datagram.get(ip + 9) & 0xFF;
        if ((flagsAndOffset & 0x3FFF) != 0 || ip + totalLength > datagram.limit() || totalLength < headerLength) {
            return false;
        }
        int l4 = ip + headerLength;
        int l4Length = totalLength - headerLength;
        int field;
        if (protocol == TCP && l4Length >= 20) {
            field = l4 + 16;
        } else if (protocol == UDP && l4Length >= 8) {
            field = l4 + 6;
        } else {
            return false;
        }
        datagram.putShort(field, (short) 0);
        long sum = 0;
        for (int i = 0; i < 8; i += 2) {
            sum += datagram.getShort(ip + 12 + i) & 0xFFFF;
        }
        sum += protocol + l4Length;
        sum += onesComplementSum(datagram, l4, l4Length);
        int checksum = (int) ~fold(sum) & 0xFFFF;
        if (protocol == UDP && checksum == 0) {
            // Zero means "no checksum" in UDP over IPv4.
            checksum = 0xFFFF;
        }
        datagram.putShort(field, (short) checksum);
        return true;
    }

    /** The 16-bit words of {@code length} bytes from {@code from}, added up (the last byte padded). */
    static long onesComplementSum(ByteBuffer b, int from, int length) {
        long sum = 0;
        int i = from;
        for (; i + 1 < from + length; i += 2) {
            sum += b.getShort(i) & 0xFFFF;
        }
        if (i < from + length) {
            sum += (b.get(i) & 0xFF) << 8;
        }
        return sum;
    }

    static long fold(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return sum;
    }
}
