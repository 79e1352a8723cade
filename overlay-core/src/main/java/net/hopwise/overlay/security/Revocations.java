package net.hopwise.overlay.security;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * Authority-signed revocation lists carried by link state ({@link RevocationList#KIND}): a list given
 * to any one node floods as that node's record, and every node whose admission is an authority's
 * that trusts the list's signer applies it as it arrives, so that telling one node is enough. The
 * carrier needs no trust: the authority's signature is checked, and a list applies only when it is
 * newer than the last applied from its authority.
 *
 * <p>Every node that applies a list also carries it, as its own record of the kind: a list lives as
 * long as any node that applied it, so a node that joins or restarts after its publisher left still
 * learns it from whichever node it links to. A list replaces the one before it from its authority (it
 * lists every revocation still wanted), so a revocation left out of a later list is withdrawn at every
 * running node; the operator's own admission ({@link #admission}: the configuration's, or the last
 * {@code SecureLinks.updateAdmission}) stays underneath, and the lists apply on top of it again when it
 * changes. Used on the node's thread.
 */
final class Revocations {
    private final ModuleContext ctx;
    private final LinkSecurity engine;
    private final LinkStateSigner signer;
    private final Runnable afterEngine;
    private final LinkStateExtension extension;
    /** The last list applied, by authority key in hex. */
    private final Map<String, RevocationList> applied = new HashMap<>();
    /** What the operator admits, before any flooded list. */
    private Admission base;

    Revocations(ModuleContext ctx, LinkSecurity engine, LinkStateSigner signer, Runnable afterEngine) {
        this.ctx = ctx;
        this.engine = engine;
        this.signer = signer;
        this.afterEngine = afterEngine;
        this.base = engine.config().admission();
        // Applied once the node's thread is done with the update that brought it, so that links are not
        // cut from inside the routing's handling of a frame.
        this.extension = ctx.linkStateExtension(RevocationList.KIND, (origin, record) -> {
            if (record != null) {
                RevocationList.decode(record).ifPresent(list -> ctx.execute(() -> apply(list)));
            }
        });
    }

    /**
     * Applies {@code list} when it is for this node's authority, newer than the last applied from it,
     * and signed by it, and carries it on: the peers cut off, or null when it does not apply.
     */
    List<String> apply(RevocationList list) {
        if (!(base instanceof AuthorityAdmission current) || !current.trusts(list.authorityKey())) {
            return null;
        }
        String authority = HexFormat.of().formatHex(list.authorityKey());
        RevocationList last = applied.get(authority);
        if (last != null && list.version() <= last.version() || !list.signatureValid()) {
            return null;
        }
        applied.put(authority, list);
        byte[] record = list.encode();
        if (record.length <= ctx.maxExtensionBytes()) {
            extension.publish(record);
        }
        return install();
    }

    /**
     * Takes {@code operators} as what this node admits before the lists (a reloaded trust file, a new
     * authority) and applies the lists it still trusts on top: the peers cut off.
     */
    List<String> admission(Admission operators) {
        base = operators;
        return install();
    }

    private List<String> install() {
        Admission next = base;
        if (base instanceof AuthorityAdmission current) {
            for (RevocationList list : applied.values()) {
                if (current.trusts(list.authorityKey())) {
                    current = current.revoking(list);
                }
            }
            next = current;
        }
        signer.updateAdmission(next);
        List<String> cut = engine.updateAdmission(next, ctx.nowNanos());
        afterEngine.run();
        return cut;
    }

    /** Applies {@code list} here and floods it; see {@link SecureLinks#publishRevocations}. */
    List<String> publish(RevocationList list) {
        if (!(base instanceof AuthorityAdmission current) || !current.trusts(list.authorityKey())) {
            throw new IllegalArgumentException("this node does not admit by the authority that signed " + list);
        }
        if (!list.signatureValid()) {
            throw new IllegalArgumentException(list + " is not signed by its authority");
        }
        RevocationList last = applied.get(HexFormat.of().formatHex(list.authorityKey()));
        if (last != null && list.version() < last.version()) {
            throw new IllegalArgumentException(list + " is older than version " + last.version() + ", applied here already");
        }
        byte[] record = list.encode();
        if (record.length > ctx.maxExtensionBytes()) {
            throw new IllegalArgumentException(list + " takes " + record.length + " bytes, more than a link-state record"
                    + " holds here (" + ctx.maxExtensionBytes() + ")");
        }
        List<String> cut = apply(list);
        if (cut == null) {
            // The version applied here already: published again as it is (apply carries a new one).
            extension.publish(record);
            return List.of();
        }
        return cut;
    }
}
