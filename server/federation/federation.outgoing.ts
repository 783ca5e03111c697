// The outgoing queue lives in ../federation-outgoing/ (posts/ and users/ queue through it, and
// federation/ reaches their neighbours in turn); federation/'s own files keep importing it here.
export {
  SEND_JOB, queueAccountRemoval, queueActivity, queueArticleActivity, queueProfileUpdate,
  type ArticleEvent, type FollowerInbox, type OutgoingActivity,
} from '../federation-outgoing/federation-outgoing.service.ts';
