package net.hopwise.voip.sip;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Makes hostile variants of valid SIP messages: bit flips, truncations, duplicated, deleted and
 * swapped lines, huge and negative lengths, NULs, bad UTF-8, broken line ends and random bytes.
 * Deterministic for a given {@link Random}.
 */
final class SipMutator {
    private static final String[] TORTURE_VALID = {
        "wsinv", "intmeth", "esc01", "escnull", "esc02", "lwsdisp", "longreq", "dblreq", "semiuri", "transports",
        "mpart01", "unreason", "noreason", "inv2543", "bcast", "zeromf", "regescrt", "badinv01", "mcl01", "clerr"
    };
    private static final byte[][] BAD_UTF8 = {
        {(byte) 0xC3, 0x28}, {(byte) 0xA0, (byte) 0xA1}, {(byte) 0xE2, 0x28, (byte) 0xA1},
        {(byte) 0xF0, 0x28, (byte) 0x8C, 0x28}, {(byte) 0xF8, (byte) 0xA1, (byte) 0xA1, (byte) 0xA1, (byte) 0xA1},
        {(byte) 0xFF}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}
    };
    private static final String[] HOSTILE_LINES = {
        "Content-Length: 99999999999999999999", "Content-Length: -1", "Content-Length: 2147483647", "l: 4294967296",
        "CSeq: 99999999999999999999 INVITE", "Max-Forwards: 99999", "Via: SIP/2.0/UDP [::1", "Via: ,,,", "v: ;;;",
        "From: \"unterminated <sip:a@b>", "To: <sip:a@b", "Contact: *", "m: <>", "Route: <sip:x;lr>,,<", ": empty name",
        "Call-ID:", "i: a b", "X-Long: " + "x".repeat(3000), " folded-first-line", "\t", "Content-Type: multipart/mixed;boundary="
    };

    private static final Pattern LENGTH = Pattern.compile("(?i)(content-length|\\nl)(\\s*:\\s*)\\d+");

    private final List<byte[]> seeds = new ArrayList<>();

    SipMutator() {
        seeds.add(utf8(SipSamples.invite()));
        seeds.add(utf8(SipSamples.ok()));
        seeds.add(utf8(SipSamples.register()));
        for (String name : TORTURE_VALID) {
            var buf = TortureMessagesTest.load(name);
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            buf.release();
            seeds.add(bytes);
        }
    }

    int seedCount() {
        return seeds.size();
    }

    byte[] seed(int i) {
        return seeds.get(i).clone();
    }

    /** One hostile input: one in sixteen is plain random bytes, the rest one to four mutations of a seed. */
    byte[] next(Random random) {
        if (random.nextInt(16) == 0) {
            byte[] noise = new byte[random.nextInt(1500)];
            random.nextBytes(noise);
            return noise;
        }
        byte[] message = seeds.get(random.nextInt(seeds.size())).clone();
        int rounds = 1 + random.nextInt(4);
        for (int i = 0; i < rounds; i++) {
            message = mutate(message, random);
        }
        return message;
    }

    private byte[] mutate(byte[] m, Random random) {
        if (m.length == 0) {
            return HOSTILE_LINES[random.nextInt(HOSTILE_LINES.length)].getBytes(StandardCharsets.UTF_8);
        }
        switch (random.nextInt(12)) {
            case 0 -> {
                for (int flips = 1 + random.nextInt(8); flips > 0; flips--) {
                    m[random.nextInt(m.length)] ^= (byte) (1 << random.nextInt(8));
                }
                return m;
            }
            case 1 -> {
                return Arrays.copyOf(m, random.nextInt(m.length));
            }
            case 2 -> {
                return editLines(m, random, Edit.DUPLICATE);
            }
            case 3 -> {
                return editLines(m, random, Edit.DELETE);
            }
            case 4 -> {
                return editLines(m, random, Edit.SWAP);
            }
            case 5 -> {
                return editLines(m, random, Edit.HOSTILE);
            }
            case 6 -> {
                m[random.nextInt(m.length)] = 0;
                return m;
            }
            case 7 -> {
                return insert(m, random.nextInt(m.length + 1), BAD_UTF8[random.nextInt(BAD_UTF8.length)]);
            }
            case 8 -> {
                return replaceAll(m, random.nextBoolean() ? "\r\n" : "\n", random.nextBoolean() ? "\n" : "\r");
            }
            case 9 -> {
                byte[] noise = new byte[1 + random.nextInt(32)];
                random.nextBytes(noise);
                return insert(m, random.nextInt(m.length + 1), noise);
            }
            case 10 -> {
                int from = random.nextInt(m.length);
                int to = Math.min(m.length, from + 1 + random.nextInt(64));
                byte[] chunk = Arrays.copyOfRange(m, from, to);
                return insert(m, from, chunk);
            }
            default -> {
                String s = new String(m, StandardCharsets.ISO_8859_1);
                String huge = random.nextBoolean() ? "99999999999" : "-" + random.nextInt(1000);
                return LENGTH.matcher(s).replaceFirst("$1$2" + huge).getBytes(StandardCharsets.ISO_8859_1);
            }
        }
    }

    private enum Edit { DUPLICATE, DELETE, SWAP, HOSTILE }

    private static byte[] editLines(byte[] m, Random random, Edit edit) {
        int[] starts = lineStarts(m);
        int lines = starts.length - 1;
        int i = random.nextInt(lines);
        ByteArrayOutputStream out = new ByteArrayOutputStream(m.length + 64);
        switch (edit) {
            case DUPLICATE -> {
                out.write(m, 0, starts[i + 1]);
                out.write(m, starts[i], m.length - starts[i]);
            }
            case DELETE -> {
                out.write(m, 0, starts[i]);
                out.write(m, starts[i + 1], m.length - starts[i + 1]);
            }
            case SWAP -> {
                int j = random.nextInt(lines);
                int a = Math.min(i, j);
                int b = Math.max(i, j);
                if (a == b) {
                    return m;
                }
                out.write(m, 0, starts[a]);
                out.write(m, starts[b], starts[b + 1] - starts[b]);
                out.write(m, starts[a + 1], starts[b] - starts[a + 1]);
                out.write(m, starts[a], starts[a + 1] - starts[a]);
                out.write(m, starts[b + 1], m.length - starts[b + 1]);
            }
            case HOSTILE -> {
                int at = starts[Math.max(1, Math.min(i, lines - 1))];
                byte[] line = (HOSTILE_LINES[random.nextInt(HOSTILE_LINES.length)] + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
                out.write(m, 0, at);
                out.write(line, 0, line.length);
                out.write(m, at, m.length - at);
            }
        }
        return out.toByteArray();
    }

    /** Offsets where each line starts, plus the length at the end. */
    private static int[] lineStarts(byte[] m) {
        int count = 1;
        for (byte b : m) {
            if (b == '\n') {
                count++;
            }
        }
        int[] starts = new int[count + 1];
        int n = 1;
        for (int i = 0; i < m.length; i++) {
            if (m[i] == '\n') {
                starts[n++] = i + 1;
            }
        }
        starts[count] = m.length;
        return starts;
    }

    private static byte[] insert(byte[] m, int at, byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(m.length + bytes.length);
        out.write(m, 0, at);
        out.write(bytes, 0, bytes.length);
        out.write(m, at, m.length - at);
        return out.toByteArray();
    }

    private static byte[] replaceAll(byte[] m, String from, String to) {
        String s = new String(m, StandardCharsets.ISO_8859_1);
        return s.replace(from, to).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
