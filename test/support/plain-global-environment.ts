/**
 * jest's Node environment, with a test file's global an ordinary global object (docs/decisions.md,
 * "The test loop"). Each file still runs in a context of its own; only how its global is made
 * differs.
 *
 * jest-environment-node makes the context from a Proxy, and Node wraps such a context's global in
 * interceptors: every read of a global (`Math`, `Infinity`, `Date`) from code running in it leaves
 * V8's optimised code for a call into Node and the Proxy. Numeric code that reads `Math` in a loop
 * (the calendar's day numbers, the price bands) runs 30-50 times slower there than outside jest.
 * `vm.constants.DONT_CONTEXTIFY` (Node 22.8+) makes a context whose global has no interceptor, as
 * fast as the main one. jest builds the context in its constructor, through `vm.createContext`, so
 * that one call is pointed at the plain kind while the constructor runs; should jest stop making its
 * context that way, the constructor throws rather than run the suite slow unnoticed.
 */
import vm from 'node:vm';
import NodeEnvironment from 'jest-environment-node';

type Options = ConstructorParameters<typeof NodeEnvironment>;

export default class PlainGlobalEnvironment extends NodeEnvironment {
  constructor(config: Options[0], context: Options[1]) {
    const createContext = vm.createContext;
    let made = 0;
    vm.createContext = ((): vm.Context => {
      made += 1;
      return createContext(vm.constants.DONT_CONTEXTIFY);
    }) as typeof vm.createContext;
    try {
      super(config, context);
    } finally {
      vm.createContext = createContext;
    }
    if (made !== 1) throw new Error(`plain-global-environment: jest made ${made} contexts through vm.createContext, not 1`);
  }
}
