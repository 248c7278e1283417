export { switchyard } from './middleware.js';
export type { SwitchyardMiddleware, ExpressLikeRequest } from './middleware.js';
