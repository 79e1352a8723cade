package net.hopwise.overlay.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.hopwise.overlay.NodeId;

/**
 * Admission by a list of identity keys per node name: the simplest setup, for a few nodes whose
 * operators exchange public keys. A name may have several keys (during a key rotation both the old
 * and the new one). File format, one entry per line, {@code #} starts a comment:
 *
 * <pre>
 *   node-a  ed25519:BASE64-OF-32-BYTES
 * </pre>
 */
public final class TrustedKeys implements Admission, IdentityDirectory {
    private static final String PREFIX = "ed25519:";

    private final Map<String, Set<String>> keysByName;

    public TrustedKeys(Map<String, ? extends Iterable<byte[]>> keysByName) {
        Map<String, Set<String>> m = new HashMap<>();
        keysByName.forEach((name, keys) -> {
            NodeId.requireValidName(name);
            List<String> hex = new ArrayList<>();
            for (byte[] k : keys) {
                if (k.length != Crypto.KEY_BYTES) {
                    throw new IllegalArgumentException("the key of " + name + " is not 32 bytes");
                }
                hex.add(HexFormat.of().formatHex(k));
            }
            m.put(name, Set.copyOf(hex));
        });
        this.keysByName = Map.copyOf(m);
    }

    @Override
    public Verdict check(String name, byte[] identityKey, NodeCertificate certificate, long epochSeconds) {
        Set<String> keys = keysByName.get(name);
        if (keys == null) {
            return Verdict.UNKNOWN_NAME;
        }
        return keys.contains(HexFormat.of().formatHex(identityKey)) ? Verdict.ADMITTED : Verdict.KEY_NOT_TRUSTED;
    }

    @Override
    public List<byte[]> keys(String name) {
        Set<String> keys = keysByName.get(name);
        if (keys == null) {
            return List.of();
        }
        return keys.stream().map(HexFormat.of()::parseHex).toList();
    }

    public Set<String> names() {
        return keysByName.keySet();
    }

    /** The line of a trusted-keys file that admits {@code identityKey} under {@code name}. */
    public static String line(String name, byte[] identityKey) {
        return NodeId.requireValidName(name) + " " + PREFIX + Base64.getEncoder().encodeToString(identityKey);
    }

    /** Parses a public key as written in trusted-keys files and by the key tool. */
    public static byte[] parseKey(String text) {
        String t = text.trim();
        if (!t.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a public key is written " + PREFIX + "BASE64, not '" + t + "'");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(t.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not base64: '" + t + "'");
        }
        if (key.length != Crypto.KEY_BYTES) {
            throw new IllegalArgumentException("an Ed25519 public key is 32 bytes, not " + key.length);
        }
        return key;
    }

    public static String format(byte[] identityKey) {
        return PREFIX + Base64.getEncoder().encodeToString(identityKey);
    }

    /**
     * Reads a trusted-keys file (public keys only, so no permission check).
     *
     * @throws IllegalArgumentException naming the file and line of an entry that does not parse
     */
    public static TrustedKeys read(Path file) throws IOException {
        Map<String, List<byte[]>> keys = new HashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String content = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (content.isEmpty()) {
                continue;
            }
            String[] parts = content.split("\\s+");
            try {
                if (parts.length != 2) {
                    throw new IllegalArgumentException("expected '<node name> " + PREFIX + "<key>'");
                }
                NodeId.requireValidName(parts[0]);
                keys.computeIfAbsent(parts[0], n -> new ArrayList<>()).add(parseKey(parts[1]));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return new TrustedKeys(keys);
    }
}
