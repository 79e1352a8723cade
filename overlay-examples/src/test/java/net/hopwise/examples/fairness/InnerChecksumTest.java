package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The relay completes the checksums the namespaces' offload left unfilled. */
class InnerChecksumTest {
    /** A VXLAN datagram: 8 bytes of header, an Ethernet frame, an IPv4 packet of {@code protocol}. */
    private static ByteBuffer datagram(int protocol, int payload, long seed) {
        int l4Header = protocol == 6 ? 20 : 8;
        int total = 20 + l4Header + payload;
        ByteBuffer b = ByteBuffer.allocate(8 + 14 + total);
        int ip = 8 + 14;
        b.putShort(8 + 12, (short) 0x0800);
        b.put(ip, (byte) 0x45);
        b.putShort(ip + 2, (short) total);
        b.putShort(ip + 6, (short) 0x4000); // don't fragment
        b.put(ip + 8, (byte) 64);
        b.put(ip + 9, (byte) protocol);
        b.put(ip + 12, new byte[] {10, (byte) 201, 1, 1});
        b.put(ip + 16, new byte[] {10, (byte) 201, 2, 2});
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = ip + 20; i < ip + total; i++) {
            b.put(i, (byte) random.nextInt(256));
        }
        if (protocol == 17) {
            b.putShort(ip + 20 + 4, (short) (8 + payload));
        }
        return b;
    }

    /** The receiver's check: the sum over the pseudo-header and the segment, checksum included, is all ones. */
    private static boolean verifies(ByteBuffer b, int protocol) {
        int ip = 8 + 14;
        int total = b.getShort(ip + 2) & 0xFFFF;
        long sum = InnerChecksum.onesComplementSum(b, ip + 12, 8) + protocol + (total - 20)
                + InnerChecksum.onesComplementSum(b, ip + 20, total - 20);
        return InnerChecksum.fold(sum) == 0xFFFF;
    }

    @Test
    void aTcpOrUdpPacketWithAnUnfilledChecksumPassesTheReceiversCheckAfterward() {
        for (long seed = 1; seed <= 50; seed++) {
            for (int protocol : new int[] {6, 17}) {
                // Odd and even lengths: the last byte of an odd segment is padded.
                ByteBuffer b = datagram(protocol, 950 + (int) seed, seed);
                assertThat(verifies(b, protocol)).as("seed %d, protocol %d before", seed, protocol).isFalse();
                assertThat(InnerChecksum.complete(b, WireRelay.VXLAN_HEADER)).isTrue();
                assertThat(verifies(b, protocol)).as("seed %d, protocol %d", seed, protocol).isTrue();
            }
        }
    }

    @Test
    void aCorrectChecksumStaysAsItIs() {
        ByteBuffer b = datagram(6, 1000, 7);
        InnerChecksum.complete(b, WireRelay.VXLAN_HEADER);
        short filled = b.getShort(8 + 14 + 20 + 16);
        InnerChecksum.complete(b, WireRelay.VXLAN_HEADER);
        assertThat(b.getShort(8 + 14 + 20 + 16)).isEqualTo(filled);
    }

    @Test
    void anythingButUnfragmentedIpv4TcpOrUdpIsLeftAlone() {
        ByteBuffer icmp = datagram(1, 56, 3);
        ByteBuffer before = icmp.duplicate();
        assertThat(InnerChecksum.complete(icmp, WireRelay.VXLAN_HEADER)).isFalse();
        assertThat(icmp).isEqualTo(before);
        ByteBuffer fragment = datagram(17, 100, 4);
        fragment.putShort(8 + 14 + 6, (short) 0x2000); // more fragments
        assertThat(InnerChecksum.complete(fragment, WireRelay.VXLAN_HEADER)).isFalse();
        ByteBuffer arp = datagram(17, 100, 5);
        arp.putShort(8 + 12, (short) 0x0806);
        assertThat(InnerChecksum.complete(arp, WireRelay.VXLAN_HEADER)).isFalse();
        assertThat(InnerChecksum.complete(ByteBuffer.allocate(20), WireRelay.VXLAN_HEADER)).isFalse();
    }
}
