// The admin dialogs' limits and messages (SPEC §5, Ban and Notify; SPEC §9): the dialogs check
// them before sending, the server again before acting.

export const INCOMPLETE_MESSAGE = 'Please complete all fields';

export const BAN_DAYS_MIN = 1;
export const BAN_DAYS_MAX = 365;
export const BAN_REASON_MAX = 500;
export const BAN_REASON_LENGTH_MESSAGE = 'Ban reason cannot exceed 500 characters';
export const BAN_LENGTH_MESSAGE = 'The ban must end between 1 and 365 days from now';

export const NOTIFICATION_SUBJECT_MAX = 200;
export const NOTIFICATION_SUBJECT_LENGTH_MESSAGE = 'Subject cannot exceed 200 characters';
export const NOTIFICATION_MESSAGE_MAX = 2000;
export const NOTIFICATION_MESSAGE_LENGTH_MESSAGE = 'Message cannot exceed 2000 characters';

export const DELETE_REASON_REQUIRED = 'Please enter a reason for deleting the post';
export const DELETE_REASON_MAX = 500;
export const DELETE_REASON_LENGTH_MESSAGE = 'The reason cannot exceed 500 characters';

export const COMMENT_DELETE_REASON_REQUIRED = 'Please enter a reason for deleting the comment';
