package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The transaction table's deadlines: expiries come due in deadline order, whatever order they were
 * set in, an expiry set again wins over the one before, a transaction replaced under its key is not
 * forgotten for the one it replaced, and the retransmission timers see only the client transactions
 * still waiting for a final response.
 */
class TransactionExpiryTest {
    private static final Hop PHONE = new Hop.Phone(new InetSocketAddress("127.0.0.1", 5060), false);

    private static Transactions.Server server(String key) {
        return new Transactions.Server(key, PHONE, "INVITE", new byte[0], true);
    }

    private static Transactions.Client client(String branch) {
        return new Transactions.Client(branch, null, PHONE, "BYE", new byte[0]);
    }

    @Test
    void expiriesSetInAnyOrderComeDueInDeadlineOrder() {
        long seed = 20261126L;
        Random random = new Random(seed);
        Transactions t = new Transactions();
        long base = Long.MAX_VALUE - 2_000_000L; // across the wrap, as nanoTime may be: deadlines compare by difference
        List<Long> deadlines = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            long at = base + random.nextInt(4_000_000);
            deadlines.add(at);
            Transactions.Server s = server("s" + i);
            t.add(s);
            t.expireAt(s, at);
        }
        deadlines.sort((x, y) -> Long.signum(x - y));
        for (int step = 1; step <= 4; step++) {
            long now = base + step * 1_000_000L;
            long next = t.expire(now);
            long held = deadlines.stream().filter(d -> now - d < 0).count();
            assertThat(t.serverCount()).as("seed %d, step %d", seed, step).isEqualTo((int) held);
            long expected = deadlines.stream().filter(d -> now - d < 0).findFirst().orElse(Long.MAX_VALUE);
            assertThat(next).as("seed %d, step %d", seed, step).isEqualTo(expected);
        }
    }

    @Test
    void anExpirySetAgainWinsAndAReplacedTransactionDoesNotTakeItsSuccessorAlong() {
        Transactions t = new Transactions();
        Transactions.Server later = server("later");
        t.add(later);
        t.expireAt(later, 100);
        t.expireAt(later, 300);
        Transactions.Server first = server("same-key");
        t.add(first);
        t.expireAt(first, 100);
        Transactions.Server successor = server("same-key");
        t.add(successor);
        t.expireAt(successor, 400);

        assertThat(t.expire(150)).as("the stale entry of 'later' still comes up first").isEqualTo(300);
        assertThat(t.server("later")).isSameAs(later);
        assertThat(t.server("same-key")).isSameAs(successor);
        t.expire(350);
        assertThat(t.server("later")).isNull();
        assertThat(t.server("same-key")).isSameAs(successor);
        assertThat(t.expire(400)).isEqualTo(Long.MAX_VALUE);
        assertThat(t.serverCount()).isZero();
    }

    @Test
    void clientsLeaveThePendingListOnceFinalOrForgotten() {
        Transactions t = new Transactions();
        Transactions.Client answered = client("answered");
        Transactions.Client waiting = client("waiting");
        t.add(answered);
        t.add(waiting);
        answered.finalStatus = 200;
        t.expireAt(answered, 10);
        // What a walk adds (a CANCEL on a timeout) is seen by the same walk, walked by index.
        List<String> walked = new ArrayList<>();
        List<Transactions.Client> pending = t.pendingClients();
        for (int i = 0; i < pending.size(); i++) {
            walked.add(pending.get(i).branch);
            if (pending.get(i) == waiting) {
                t.add(client("added-during-walk"));
            }
        }
        assertThat(walked).containsExactly("answered", "waiting", "added-during-walk");
        t.prunePending();
        assertThat(t.pendingClients()).extracting(c -> c.branch).containsExactly("waiting", "added-during-walk");

        t.expire(10);
        assertThat(t.client("answered")).isNull();
        assertThat(t.clientCount()).isEqualTo(2);
        t.clear();
        t.prunePending();
        assertThat(t.pendingClients()).isEmpty();
    }
}
