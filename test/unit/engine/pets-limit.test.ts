import fc from 'fast-check';
import { MAX_PETS_PER_STAY, petsOverLimit } from '../../../services/kernel/engine/stay-check';

describe('the pets limit of a stay (the contract, Limits: at most 2, cats and dogs combined)', () => {
  it('is two', () => {
    expect(MAX_PETS_PER_STAY).toBe(2);
  });

  it('lets any mix of up to two pets through and refuses every mix of more, in one sentence', () => {
    fc.assert(
      fc.property(fc.nat(5), fc.nat(5), (cats, dogs) => {
        const said = petsOverLimit({ cats, dogs });
        if (cats + dogs <= 2) expect(said).toBeNull();
        else expect(said).toBe('At most 2 pets per stay, cats and dogs combined.');
      }),
    );
  });
});
