package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class NoiseXXTest {
    private static final HexFormat HEX = HexFormat.of();

    /**
     * The published vector for this exact protocol name (cacophony's vector file, public domain):
     * {@code <protocol name>.json} from the test classpath's {@code noise/} or from the directory
     * named by -Dhopwise.noise.vectors.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(CipherSuite.class)
    void matchesThePublishedTestVector(CipherSuite suite) throws Exception {
        String json = vectorFile(suite);
        Assumptions.assumeTrue(json != null, "no Noise vector file " + suite.protocolName() + ".json: pass"
                + " -Dhopwise.noise.vectors=<directory> holding cacophony's entry for that protocol name");
        int at = json.indexOf("\"" + suite.protocolName() + "\"");
        assertThat(at).as("vector for " + suite.protocolName()).isNotNegative();
        int end = json.indexOf("\"protocol_name\"", at + 10);
        String v = json.substring(at, end < 0 ? json.length() : end);
        // a vector with a PSK or fallback fields is another protocol; this one must have none
        assertThat(v).doesNotContain("psk").doesNotContain("fallback");

        NoiseXX initiator = new NoiseXX(suite, true, hex(v, "init_prologue"), hex(v, "init_static"), hex(v, "init_ephemeral"));
        NoiseXX responder = new NoiseXX(suite, false, hex(v, "resp_prologue"), hex(v, "resp_static"), hex(v, "resp_ephemeral"));
        List<byte[][]> messages = messages(v);
        assertThat(messages).hasSizeGreaterThanOrEqualTo(3);
        for (int i = 0; i < 3; i++) {
            NoiseXX writer = i % 2 == 0 ? initiator : responder;
            NoiseXX reader = i % 2 == 0 ? responder : initiator;
            byte[] ct = writer.writeMessage(messages.get(i)[0]);
            assertThat(HEX.formatHex(ct)).as("message " + i).isEqualTo(HEX.formatHex(messages.get(i)[1]));
            assertThat(reader.readMessage(ct)).isEqualTo(messages.get(i)[0]);
        }
        assertThat(HEX.formatHex(initiator.handshakeHash())).isEqualTo(HEX.formatHex(hex(v, "handshake_hash")));
        assertThat(responder.handshakeHash()).isEqualTo(initiator.handshakeHash());
        byte[][] keys = initiator.split();
        assertThat(responder.split()).isDeepEqualTo(keys);
        Aead toResponder = new Aead(suite, keys[0]);
        Aead toInitiator = new Aead(suite, keys[1]);
        long[] counters = new long[2];
        for (int i = 3; i < messages.size(); i++) {
            boolean fromInitiator = i % 2 == 0;
            Aead aead = fromInitiator ? toResponder : toInitiator;
            byte[] ct = aead.seal(counters[fromInitiator ? 0 : 1]++, new byte[0], messages.get(i)[0]);
            assertThat(HEX.formatHex(ct)).as("transport message " + i).isEqualTo(HEX.formatHex(messages.get(i)[1]));
        }
    }

    @Test
    void freshKeysAgreeAndLearnEachOthersStatic() throws Exception {
        byte[] is = Crypto.newX25519Private();
        byte[] rs = Crypto.newX25519Private();
        NoiseXX i = NoiseXX.initiator(new byte[] {1}, is);
        NoiseXX r = NoiseXX.responder(new byte[] {1}, rs);
        r.readMessage(i.writeMessage(new byte[0]));
        assertThat(i.readMessage(r.writeMessage("hello".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
        r.readMessage(i.writeMessage(new byte[0]));
        assertThat(i.remoteStatic()).isEqualTo(Crypto.x25519Public(rs));
        assertThat(r.remoteStatic()).isEqualTo(Crypto.x25519Public(is));
        assertThat(i.split()).isDeepEqualTo(r.split());
        assertThat(i.split()[0]).isNotEqualTo(i.split()[1]);
    }

    @Test
    void aDifferentPrologueOrAFlippedBitFailsTheHandshake() throws Exception {
        NoiseXX i = NoiseXX.initiator(new byte[] {1}, Crypto.newX25519Private());
        NoiseXX r = NoiseXX.responder(new byte[] {2}, Crypto.newX25519Private());
        r.readMessage(i.writeMessage(new byte[0]));
        byte[] m2 = r.writeMessage(new byte[0]);
        assertThatThrownBy(() -> i.readMessage(m2)).isInstanceOf(HandshakeException.class);
        assertThat(i.isComplete()).isFalse();

        NoiseXX i2 = NoiseXX.initiator(new byte[0], Crypto.newX25519Private());
        NoiseXX r2 = NoiseXX.responder(new byte[0], Crypto.newX25519Private());
        r2.readMessage(i2.writeMessage(new byte[0]));
        i2.readMessage(r2.writeMessage(new byte[0]));
        byte[] m3 = i2.writeMessage(new byte[0]);
        m3[5] ^= 1;
        assertThatThrownBy(() -> r2.readMessage(m3)).isInstanceOf(HandshakeException.class);
        assertThatThrownBy(r2::split).isInstanceOf(HandshakeException.class);
    }

    @Test
    void refusesALowOrderEphemeralAndMessagesOutOfTurn() throws Exception {
        NoiseXX r = NoiseXX.responder(new byte[0], Crypto.newX25519Private());
        NoiseXX i = NoiseXX.initiator(new byte[0], Crypto.newX25519Private());
        assertThatThrownBy(() -> i.readMessage(new byte[64])).isInstanceOf(HandshakeException.class);
        r.readMessage(new byte[32]); // u = 0: taken into the hash, refused at the first DH
        assertThatThrownBy(() -> r.writeMessage(new byte[0])).isInstanceOf(HandshakeException.class);
        NoiseXX r2 = NoiseXX.responder(new byte[0], Crypto.newX25519Private());
        assertThatThrownBy(() -> r2.readMessage(new byte[31])).isInstanceOf(HandshakeException.class);
    }

    private static String vectorFile(CipherSuite suite) throws IOException {
        String dir = System.getProperty("hopwise.noise.vectors");
        if (dir != null && !dir.isBlank()) {
            Path file = Path.of(dir).resolve(suite.protocolName() + ".json");
            return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        }
        try (InputStream in = NoiseXXTest.class.getResourceAsStream("/noise/" + suite.protocolName() + ".json")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] hex(String vector, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*\"([0-9a-fA-F]*)\"").matcher(vector);
        assertThat(m.find()).as(field).isTrue();
        return HEX.parseHex(m.group(1));
    }

    private static List<byte[][]> messages(String vector) {
        Matcher m = Pattern.compile("\"payload\"\\s*:\\s*\"([0-9a-fA-F]*)\"\\s*,\\s*\"ciphertext\"\\s*:\\s*\"([0-9a-fA-F]*)\"")
                .matcher(vector);
        List<byte[][]> out = new ArrayList<>();
        while (m.find()) {
            out.add(new byte[][] {HEX.parseHex(m.group(1)), HEX.parseHex(m.group(2))});
        }
        return out;
    }
}
