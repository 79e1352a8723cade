package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The datagram path seals in place (the plaintext gathered right behind the room for the header) and
 * opens straight from arrays at any offset; direct buffers take the JDK's buffer path. Both must put
 * the same bytes on the wire and open each other's datagrams, whatever the offsets.
 */
class SealInPlaceProperties {
    @Property(seed = "1706", tries = 150)
    void inPlaceArraySealingAndTheBufferPathAgreeByteForByte(@ForAll @Size(max = 1500) byte[] payload,
            @ForAll @IntRange(min = 0, max = 64) int slack, @ForAll @IntRange(min = 0, max = 3) int datagrams,
            @ForAll CipherSuite suite) {
        byte[][] keys = {Crypto.randomBytes(32), Crypto.randomBytes(32)};
        Session inPlace = new Session(suite, "b", 1, 2, true, keys, 256, 0, new byte[32]);
        Session direct = new Session(suite, "b", 1, 2, true, keys, 256, 0, new byte[32]);
        Session rx = new Session(suite, "a", 2, 1, false, keys, 256, 0, new byte[32]);
        int n = payload.length;
        for (int d = 0; d <= datagrams; d++) {
            // in place, at an offset into a larger array, as the module's scratch array is used
            byte[] buf = new byte[slack + n + SecureWire.DATA_OVERHEAD + slack];
            System.arraycopy(payload, 0, buf, slack + SecureWire.DATA_HEADER_BYTES, n);
            ByteBuffer out = ByteBuffer.wrap(buf, slack, n + SecureWire.DATA_OVERHEAD);
            inPlace.seal(ByteBuffer.wrap(buf, slack + SecureWire.DATA_HEADER_BYTES, n), out);
            assertThat(out.position()).isEqualTo(slack + n + SecureWire.DATA_OVERHEAD);
            byte[] wire = Arrays.copyOfRange(buf, slack, slack + n + SecureWire.DATA_OVERHEAD);

            ByteBuffer plainDirect = ByteBuffer.allocateDirect(n).put(payload).flip();
            ByteBuffer sealedDirect = ByteBuffer.allocateDirect(n + SecureWire.DATA_OVERHEAD);
            direct.seal(plainDirect, sealedDirect);
            byte[] wire2 = new byte[n + SecureWire.DATA_OVERHEAD];
            sealedDirect.flip().get(wire2);
            assertThat(wire).as("datagram %d", d).isEqualTo(wire2);

            // opened from a slice of a larger array (a non-zero array offset) into a heap buffer
            byte[] big = new byte[slack + wire.length];
            System.arraycopy(wire, 0, big, slack, wire.length);
            ByteBuffer sliced = ByteBuffer.wrap(big).position(slack).slice();
            ByteBuffer opened = ByteBuffer.allocate(n + slack);
            assertThat(rx.open(sliced, opened)).isNull();
            assertThat(Arrays.copyOf(opened.array(), opened.position())).isEqualTo(payload);
            assertThat(sliced.hasRemaining()).isFalse();

            // the same datagram again, through direct buffers this time: a replay
            ByteBuffer again = ByteBuffer.allocateDirect(wire.length).put(wire).flip();
            assertThat(rx.open(again, ByteBuffer.allocateDirect(n + 1))).isEqualTo(DropReason.REPLAY);
        }
    }

    @Property(seed = "1707", tries = 100)
    void aForgedDatagramOpensToNothingOnEitherPathAndLeavesTheWindowAlone(@ForAll @Size(max = 600) byte[] payload,
            @ForAll @IntRange(min = 5, max = 10_000) int flipAt, @ForAll @IntRange(min = 1, max = 255) int flipBits,
            @ForAll boolean viaDirect, @ForAll CipherSuite suite) {
        byte[][] keys = {Crypto.randomBytes(32), Crypto.randomBytes(32)};
        Session tx = new Session(suite, "b", 1, 2, true, keys, 256, 0, new byte[32]);
        Session rx = new Session(suite, "a", 2, 1, false, keys, 256, 0, new byte[32]);
        ByteBuffer sealed = ByteBuffer.allocate(payload.length + SecureWire.DATA_OVERHEAD);
        tx.seal(ByteBuffer.wrap(payload), sealed);
        byte[] wire = sealed.array();
        int at = 5 + (flipAt - 5) % (wire.length - 5); // past the type and index, which route a datagram
        byte[] forged = wire.clone();
        forged[at] ^= (byte) flipBits;
        ByteBuffer in = viaDirect ? ByteBuffer.allocateDirect(forged.length).put(forged).flip() : ByteBuffer.wrap(forged);
        ByteBuffer out = viaDirect ? ByteBuffer.allocateDirect(wire.length) : ByteBuffer.allocate(wire.length);
        DropReason r = rx.open(in, out);
        // a changed counter may name one the window refuses outright (too far back): a replay drop
        assertThat(r).as("flip at %d", at).isIn(DropReason.FORGED, DropReason.REPLAY);
        assertThat(out.position()).isZero();
        ByteBuffer real = ByteBuffer.allocate(wire.length);
        assertThat(rx.open(ByteBuffer.wrap(wire), real)).isNull();
        assertThat(Arrays.copyOf(real.array(), real.position())).isEqualTo(payload);
    }
}
