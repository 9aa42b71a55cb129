import { AttemptRetryTimes1764687600000 } from './AttemptRetryTimes1764687600000.js';
import { AttemptsByAge1764662400000 } from './AttemptsByAge1764662400000.js';
import { CoveringStatusIndex1763942400000 } from './CoveringStatusIndex1763942400000.js';
import { DeliveriesByEndpoint1764576000000 } from './DeliveriesByEndpoint1764576000000.js';
import { CreateIdempotencyKeys1763856000000 } from './CreateIdempotencyKeys1763856000000.js';
import { InitialSchema1763769600000 } from './InitialSchema1763769600000.js';
import { LimitedRequestsPerDay1764691200000 } from './LimitedRequestsPerDay1764691200000.js';
import { KeyModel1764028800000 } from './KeyModel1764028800000.js';
import { PetEvents1764403200000 } from './PetEvents1764403200000.js';
import { PetVersion1764316800000 } from './PetVersion1764316800000.js';
import { ResendsMarked1764748800000 } from './ResendsMarked1764748800000.js';
import { RateLimitBans1764230400000 } from './RateLimitBans1764230400000.js';
import { WebhookHolds1764705600000 } from './WebhookHolds1764705600000.js';
import { Webhooks1764489600000 } from './Webhooks1764489600000.js';

/** Every migration, oldest first. */
export const migrations = [
  InitialSchema1763769600000,
  CreateIdempotencyKeys1763856000000,
  CoveringStatusIndex1763942400000,
  KeyModel1764028800000,
  RateLimitBans1764230400000,
  PetVersion1764316800000,
  PetEvents1764403200000,
  Webhooks1764489600000,
  DeliveriesByEndpoint1764576000000,
  AttemptsByAge1764662400000,
  AttemptRetryTimes1764687600000,
  LimitedRequestsPerDay1764691200000,
  WebhookHolds1764705600000,
  ResendsMarked1764748800000,
];
