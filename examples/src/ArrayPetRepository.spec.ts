// Runs the PetRepository contract against your adapter: ids, ordering, paging and filters behave as the use cases
// expect, or the suite says which rule is broken.
import { describePetRepositoryContract } from '@petstore/core/contracts';
import { ArrayPetRepository } from './ArrayPetRepository.js';

describePetRepositoryContract('ArrayPetRepository', async () => {
  const repository = new ArrayPetRepository();
  return { repository, events: repository };
});
