// Property tests (fast-check) run on a fixed seed, so a run never fails by chance and a failure
// replays. `FC_SEED=<number>` runs another seed; `FC_SEED=random` a new one each run (fast-check
// prints the seed and path of any failure, to replay it with FC_SEED).
import fc from 'fast-check'

const given = process.env.FC_SEED
fc.configureGlobal({ seed: given === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(given ?? 20_261_202) })
