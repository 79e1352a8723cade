package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The room of a session's send buffer, with its low-water mark at half. */
class SendCreditTest {
    private final SendCredit credit = new SendCredit(16);

    @Test
    void onceFullItTakesMoreOnlyWhenHalfIsFree() {
        for (int i = 0; i < 16; i++) {
            assertThat(credit.tryTake(1)).as("take %d", i).isTrue();
        }
        assertThat(credit.tryTake(1)).isFalse();
        assertThat(credit.isWritable()).isFalse();
        assertThat(credit.waiting()).isTrue();

        // Room for 7 packets, but the buffer is not yet half empty: still refused, nobody woken.
        assertThat(credit.giveBack(7)).isFalse();
        assertThat(credit.tryTake(1)).isFalse();
        assertThat(credit.isWritable()).isFalse();

        // The give-back that reaches half wakes the waiter once, and sends are taken again.
        assertThat(credit.giveBack(1)).isTrue();
        assertThat(credit.waiting()).isFalse();
        assertThat(credit.isWritable()).isTrue();
        assertThat(credit.giveBack(1)).isFalse();
        for (int i = 0; i < 9; i++) {
            assertThat(credit.tryTake(1)).as("take %d after half", i).isTrue();
        }
        assertThat(credit.outstanding()).isEqualTo(16);
    }

    @Test
    void withoutARefusalEveryFreePacketCanBeTaken() {
        for (int i = 0; i < 15; i++) {
            credit.tryTake(1);
        }
        assertThat(credit.giveBack(3)).isFalse();
        assertThat(credit.tryTake(4)).isTrue();
        assertThat(credit.outstanding()).isEqualTo(16);
    }

    @Test
    void aMessageTooLargeForTheFreeHalfWaitsForMoreWithoutSpinning() {
        for (int i = 0; i < 8; i++) {
            credit.tryTake(1);
        }
        // 8 outstanding (exactly half), 9 needed: refused, and the next give-back wakes the sender.
        assertThat(credit.tryTake(9)).isFalse();
        assertThat(credit.waiting()).isTrue();
        assertThat(credit.giveBack(1)).isTrue();
        assertThat(credit.tryTake(9)).isTrue();
    }

    @Test
    void aRefusalRacingWithTheLastGiveBackStillFindsTheRoom() {
        for (int i = 0; i < 16; i++) {
            credit.tryTake(1);
        }
        credit.tryTake(1); // refused: full
        // The loop frees everything; the sender's next try takes at once.
        credit.giveBack(16);
        assertThat(credit.tryTake(1)).isTrue();
    }
}
