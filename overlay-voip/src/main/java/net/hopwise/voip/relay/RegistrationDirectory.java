package net.hopwise.voip.relay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;

/**
 * Which relay serves which address of record, across the overlay: each relay publishes the addresses
 * its phones registered as a link-state record of its node, so that any relay routes a call for
 * {@code bob@example.com} to the node where bob registered, without a dial-plan rule. Link state is
 * the natural carrier: flooded reliably to every node, ordered per origin, signed where links are,
 * and gone with its node when the node crashes (no stale registration outlives its relay by more than
 * link state's own collection). Install it on the node the relay runs beside; the relay finds it.
 *
 * <p>A record is bounded by the node's {@link ModuleContext#maxExtensionBytes()} (about 1 KB: some 40
 * addresses of typical length); addresses beyond it are served locally but not published, counted by
 * {@link #unpublished()}, and reached from other sites by dial plan as before.
 */
public final class RegistrationDirectory implements OverlayModule {
    /** The link-state record kind: ASCII "VR" (VoIP registrations). */
    public static final int KIND = 0x5652;

    private volatile ModuleContext ctx;
    private volatile LinkStateExtension extension;
    /** Address of record to the names of the nodes that publish it, other nodes only; replaced whole. */
    private volatile Map<String, List<String>> servedBy = Map.of();
    /** What this node publishes now, on the node's thread. */
    private List<String> published = List.of();
    private volatile int unpublished;

    @Override
    public String name() {
        return "voip-registrations";
    }

    @Override
    public void install(ModuleContext ctx) {
        this.ctx = ctx;
        this.extension = ctx.linkStateExtension(KIND, (origin, record) -> rebuild());
        ctx.provide(RegistrationDirectory.class, this);
    }

    /**
     * Publishes this relay's addresses of record (any thread); nothing is flooded when they did not
     * change. An empty set withdraws the record.
     */
    public void publish(Collection<String> addressesOfRecord) {
        ModuleContext c = ctx;
        if (c == null) {
            return; // not installed on a node: the relay routes by dial plan alone
        }
        List<String> sorted = new ArrayList<>(new TreeSet<>(addressesOfRecord.stream()
                .map(a -> a.toLowerCase(Locale.ROOT)).toList()));
        try {
            c.execute(() -> {
            if (sorted.equals(published)) {
                return;
            }
            published = sorted;
            if (sorted.isEmpty()) {
                extension.withdraw();
                unpublished = 0;
                return;
            }
            byte[] record = encode(c.config().name(), sorted, c.maxExtensionBytes());
            unpublished = sorted.size() - count(record);
            extension.publish(record);
            });
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // The node is stopping: its record goes with its link state.
        }
    }

    /**
     * The other nodes where {@code addressOfRecord} is registered, by name in order; when none publishes
     * it exactly, the nodes of the only published address with the same user (phones often register
     * under an IP literal while callers dial a domain), else none.
     */
    public List<String> nodesServing(String addressOfRecord, String user) {
        Map<String, List<String>> m = servedBy;
        List<String> exact = m.get(addressOfRecord.toLowerCase(Locale.ROOT));
        if (exact != null) {
            return exact;
        }
        if (user == null) {
            return List.of();
        }
        String prefix = user.toLowerCase(Locale.ROOT) + "@";
        List<String> found = List.of();
        for (Map.Entry<String, List<String>> e : m.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                if (!found.isEmpty()) {
                    return List.of(); // ambiguous: several addresses with this user
                }
                found = e.getValue();
            }
        }
        return found;
    }

    /** Addresses of record this relay serves but could not fit in its record. */
    public int unpublished() {
        return unpublished;
    }

    /** On the node's thread: every origin's record, read again into one map. */
    private void rebuild() {
        ModuleContext c = ctx;
        Map<String, TreeSet<String>> next = new HashMap<>();
        for (Map.Entry<NodeId, byte[]> e : extension.records().entrySet()) {
            if (e.getKey().equals(c.self())) {
                continue;
            }
            Decoded d = decode(e.getValue());
            // A record names its node; one whose name is not its origin's is ignored, not believed.
            if (d == null || !NodeId.ofName(d.node()).equals(e.getKey())) {
                continue;
            }
            for (String aor : d.addresses()) {
                next.computeIfAbsent(aor, k -> new TreeSet<>()).add(d.node());
            }
        }
        Map<String, List<String>> frozen = new TreeMap<>();
        next.forEach((aor, nodes) -> frozen.put(aor, List.copyOf(nodes)));
        servedBy = Map.copyOf(frozen);
    }

    /** A record as published: its node's name and the addresses it holds. */
    record Decoded(String node, List<String> addresses) {}

    /**
     * {@code u8 name length, name, u16 count, count x (u8 length, address)}, UTF-8, as many addresses as
     * fit in {@code maxBytes}.
     */
    static byte[] encode(String node, List<String> addresses, int maxBytes) {
        byte[] name = node.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(maxBytes);
        b.put((byte) name.length).put(name);
        int countAt = b.position();
        b.putShort((short) 0);
        int count = 0;
        for (String a : addresses) {
            byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
            if (bytes.length > 255 || b.remaining() < 1 + bytes.length || count == 0xFFFF) {
                continue;
            }
            b.put((byte) bytes.length).put(bytes);
            count++;
        }
        b.putShort(countAt, (short) count);
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    private static int count(byte[] record) {
        int nameLength = record[0] & 0xFF;
        return ((record[1 + nameLength] & 0xFF) << 8) | (record[2 + nameLength] & 0xFF);
    }

    /** The record in {@code bytes}, or null when they are not exactly one. */
    static Decoded decode(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        try {
            byte[] name = new byte[b.get() & 0xFF];
            b.get(name);
            int count = b.getShort() & 0xFFFF;
            List<String> addresses = new ArrayList<>(Math.min(count, bytes.length));
            for (int i = 0; i < count; i++) {
                byte[] a = new byte[b.get() & 0xFF];
                b.get(a);
                addresses.add(utf8(a));
            }
            String node = utf8(name);
            if (b.hasRemaining()) {
                return null;
            }
            NodeId.requireValidName(node);
            return new Decoded(node, addresses);
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException
                | java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    /** Strict: bytes that are not UTF-8 make no record, rather than one with replacement characters. */
    private static String utf8(byte[] bytes) throws java.nio.charset.CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    }
}
